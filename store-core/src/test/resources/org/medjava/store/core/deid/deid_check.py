"""Independent check of a de-identified DICOM file (DeidCorpusTest): pydicom reads it to its end, its transfer
syntax and pixel data are the original's byte for byte, and no attribute that dicom-anonymizer (PS3.15 2026c Basic
Profile) removes or replaces in the original keeps its identifying value in ours.

usage: deid_check.py ORIGINAL OURS -- prints one line per problem (PROBLEM ... or LEAK tag keyword), then DONE
"""
import copy
import sys

import pydicom
from dicomanonymizer import anonymize_dataset, initialize_actions


def leaves(ds, path=()):
    """(path, element) of every non-sequence element, path = ((tag, item index), ...)."""
    for elem in ds:
        if elem.VR == "SQ":
            for i, item in enumerate(elem.value):
                yield from leaves(item, path + ((elem.tag, i),))
        else:
            yield path + ((elem.tag, None),), elem


def text(elem):
    try:
        v = elem.value
    except Exception:
        return None
    if v is None or v == "" or v == b"":
        return None
    return str(v)


def main(original_path, ours_path):
    original = pydicom.dcmread(original_path)
    ours = pydicom.dcmread(ours_path)
    list(leaves(ours))  # every value parsed
    for elem in ours.iterall():
        _ = elem.value
    if original.file_meta.TransferSyntaxUID != ours.file_meta.TransferSyntaxUID:
        print("PROBLEM transfer syntax", original.file_meta.TransferSyntaxUID, "became",
              ours.file_meta.TransferSyntaxUID)
    for keyword in ("PixelData", "FloatPixelData", "DoubleFloatPixelData"):
        if keyword in original and (keyword not in ours or original[keyword].value != ours[keyword].value):
            print("PROBLEM", keyword, "differs")
    theirs = copy.deepcopy(original)
    anonymize_dataset(theirs, base_rules_gen=lambda: initialize_actions("dicomfields_2026c"))
    theirs_values = {p: text(e) for p, e in leaves(theirs)}
    ours_values = {p: text(e) for p, e in leaves(ours)}
    for p, elem in leaves(original):
        value = text(elem)
        if value is None or elem.tag.group == 0x0002:
            continue
        if theirs_values.get(p) == value:
            continue  # the tool keeps it too
        if ours_values.get(p) == value:
            print("LEAK", "/".join(str(t) + ("" if i is None else "[%d]" % i) for t, i in p), elem.keyword or "private")
    print("DONE")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
