#!/usr/bin/env python3
"""Reference pixels for image-codec's decoder tests (DecodedPixelsTest): reference.tsv, one line a frame.

Run (from anywhere) with pydicom 3.0.2, pyjpegls, pylibjpeg, pylibjpeg-libjpeg and numpy (a venv; test-only), and
DCMTK on PATH:
    python3 -m venv /tmp/pyref && /tmp/pyref/bin/pip install pydicom==3.0.2 pyjpegls pylibjpeg pylibjpeg-libjpeg numpy
    /tmp/pyref/bin/python make_reference.py

Columns: file, frame, kind, sha256, reference, note.
  native  the frame as image-codec's PixelFrames returns it: every sample masked to Bits Stored (unsigned), written
          in Bits Allocated bits little endian, pixel-interleaved.
  rgb8    PALETTE COLOR looked up (pydicom apply_color_lut), each 16-bit entry's top 8 bits, R G B a pixel.
reference names who decoded it: "pydicom+dcmtk" when pydicom 3 and DCMTK (dcmdjpls/dcmdjpeg/dcmdrle, then pydicom
reading the uncompressed result) agree exactly, else the one used, and note says by how much the other differs.
"""
import hashlib
import os
import subprocess
import sys
import tempfile

import numpy as np
import pydicom
from pydicom.pixels import apply_color_lut, pixel_array

FILES = [
    "JLSL_08_07_0_1F.dcm", "JLSL_16_15_1_1F.dcm", "JLSL_RGB_ILV0.dcm", "JLSL_RGB_ILV1.dcm", "JLSL_RGB_ILV2.dcm",
    "JLSN_RGB_ILV0.dcm", "MR_small_jpeg_ls_lossless.dcm", "emri_small_jpeg_ls_lossless.dcm", "JPEG-lossy.dcm", "emri_small_jpeg_12bit_dcmtk.dcm",
    "SC_rgb_32bit.dcm", "SC_rgb_rle_16bit.dcm", "SC_rgb_rle_32bit.dcm", "rtdose_rle.dcm",
    "rtdose_rle_1frame.dcm", "MR_small_RLE.dcm", "SC_rgb_rle.dcm",
]
PALETTE = ["gdcm-US-ALOKA-16.dcm"]
DCMTK = {"1.2.840.10008.1.2.4.80": "dcmdjpls", "1.2.840.10008.1.2.4.81": "dcmdjpls",
         "1.2.840.10008.1.2.4.51": "dcmdjpeg", "1.2.840.10008.1.2.4.50": "dcmdjpeg", "1.2.840.10008.1.2.5": "dcmdrle"}


def native(arr, ds):
    bits, stored = ds.BitsAllocated, ds.BitsStored
    a = arr.astype(np.int64) & ((1 << stored) - 1)
    return a.astype({8: "<u1", 16: "<u2", 32: "<u4"}[bits]).tobytes()


def frames(path, raw=True):
    ds = pydicom.dcmread(path)
    n = int(getattr(ds, "NumberOfFrames", 1) or 1)
    return ds, [pixel_array(path, index=i, raw=raw) for i in range(n)]


def dcmtk_frames(path, ds):
    tool = DCMTK.get(ds.file_meta.TransferSyntaxUID)
    if tool is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.dcm")
        # +cn: keep the colour model (no YCbCr to RGB) where the tool has the option
        args = [tool, path, out] + (["+cn"] if tool == "dcmdjpeg" else [])
        run = subprocess.run(args, capture_output=True, text=True)
        if run.returncode != 0:  # e.g. dcmdjpls refuses 7 bits stored: the reference is pydicom's alone
            return f"{tool} refuses it: " + (run.stderr.strip().splitlines() or ["?"])[0][:70]
        return frames(out)[1]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    os.chdir(os.path.dirname(here))  # the .dcm files are in the parent folder
    lines = []
    for name in FILES:
        ds = pydicom.dcmread(name)
        theirs = dcmtk_frames(name, ds)
        try:
            ours = frames(name)[1]
        except RuntimeError as e:  # JPEG-lossy.dcm: libjpeg refuses its scan header (Se 0), DCMTK decodes it
            ours = None
            why = str(e).splitlines()[-1].strip()[:80]
        if ours is None:
            for i, arr in enumerate(theirs):
                digest = hashlib.sha256(native(arr, ds)).hexdigest()
                lines.append(f"{name}\t{i}\tnative\t{digest}\tdcmtk\tpydicom cannot decode it: {why}")
            continue
        for i, arr in enumerate(ours):
            digest = hashlib.sha256(native(arr, ds)).hexdigest()
            reference, note = "pydicom", "no DCMTK tool for this syntax"
            if isinstance(theirs, str):
                note = theirs
            elif theirs is not None:
                diff = int(np.max(np.abs(arr.astype(np.int64) - theirs[i].astype(np.int64))))
                if diff == 0:
                    reference, note = "pydicom+dcmtk", "identical"
                else:
                    # lossy: DCMTK (IJG) is the reference image-codec matches; pydicom's libjpeg differs by diff
                    digest = hashlib.sha256(native(theirs[i], ds)).hexdigest()
                    reference, note = "dcmtk", f"pydicom differs by up to {diff}"
            lines.append(f"{name}\t{i}\tnative\t{digest}\t{reference}\t{note}")
    for name in PALETTE:
        ds, ours = frames(name)
        for i, arr in enumerate(ours):
            rgb = apply_color_lut(arr, ds)
            rgb8 = (rgb.astype(np.uint32) >> 8).astype(np.uint8) if rgb.dtype != np.uint8 else rgb
            lines.append(f"{name}\t{i}\trgb8\t{hashlib.sha256(rgb8.tobytes()).hexdigest()}\tpydicom\tsegmented")
    with open(os.path.join(here, "reference.tsv"), "w") as f:
        f.write("# made by make_reference.py (pydicom %s); see its docstring\n" % pydicom.__version__)
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines), file=sys.stderr)


if __name__ == "__main__":
    main()
