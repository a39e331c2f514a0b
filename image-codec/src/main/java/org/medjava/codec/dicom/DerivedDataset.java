package org.medjava.codec.dicom;

import static com.pixelmed.dicom.TagFromName.*;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.CodedSequenceItem;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.OtherByteAttribute;
import com.pixelmed.dicom.OtherWordAttribute;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.SpecificCharacterSet;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.UnsignedLongAttribute;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.medjava.filter.GrayRaster16;
import org.medjava.filter.Raster;

/**
 * Builds the dataset of a {@link DerivedDicom} object: a Secondary Capture Image (PS3.3 A.8.1). image-codec/README.md
 * lists each attribute and why it is there.
 */
final class DerivedDataset {
    static final String UTF8 = "ISO_IR 192";
    /**
     * Window Center/Width of grey objects: the identity under the linear VOI function of PS3.3 C.11.2.1.2.1 (stored
     * value x gives ((x - 127.5) / 255 + 0.5) * 255 = x), so viewers, and {@link DicomImage#render()}, show the
     * filtered pixels as they are. Without a window our reader would stretch the frame's min..max instead, and
     * 127.5/256 would show every pixel one step too bright.
     */
    static final String WINDOW_CENTER = "128";
    static final String WINDOW_WIDTH = "256";
    static final String MANUFACTURER = "MedJava";
    static final String SOFTWARE_VERSION = "0.1";
    private static final String SUFFIX = " (filtered)";

    /**
     * Patient and General Study attributes kept from the source, and the source's Laterality (the derived image shows
     * the same body part). All are Type 1, 2 or 2C, so they are written empty when the source lacks them; dciodvfy
     * reports a missing Laterality as an error, an empty one is allowed.
     */
    private static final List<AttributeTag> KEPT_OR_EMPTY = List.of(PatientName, PatientID, PatientBirthDate,
            PatientSex, StudyInstanceUID, StudyDate, StudyTime, ReferringPhysicianName, StudyID, AccessionNumber,
            Laterality);
    /**
     * Kept only when the source has them: the character set its strings are in, optional patient, study and series
     * context, and what stays true of pixels derived from it (burned-in annotation, earlier lossy compression).
     */
    private static final List<AttributeTag> IF_PRESENT = List.of(TagFromName.SpecificCharacterSet, IssuerOfPatientID,
            StudyDescription, BodyPartExamined, BurnedInAnnotation, LossyImageCompression,
            LossyImageCompressionRatio, LossyImageCompressionMethod);
    /** Contribution DateTime (0018,A002), DT; not in PixelMed's dictionary. */
    private static final AttributeTag CONTRIBUTION_DATE_TIME = new AttributeTag(0x0018, 0xA002);
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyyMMdd");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HHmmss");

    private DerivedDataset() {
    }

    static AttributeList build(DerivedDicom.Request request, Raster raster, LocalDateTime now)
            throws DicomException {
        AttributeList out = header(request, now, null);
        pixels(out, raster);
        fileMetaInformation(out, request.sourceAeTitle);
        return out;
    }

    /**
     * A derived object of grey stored values at the raster's depth. A CT or MR single-frame source keeps its SOP
     * class: the source's dataset is copied (acquisition, frame of reference, image plane, rescale) except what no
     * longer holds for the new pixels ({@link #copyOfSource}); anything else becomes a Secondary Capture with the
     * source's rescale (Modality LUT module) and windows.
     */
    static AttributeList buildGrey(DerivedDicom.Request request, GrayRaster16 raster, LocalDateTime now)
            throws DicomException {
        AttributeList out = header(request, now, keptSopClass(request));
        greyPixels(out, request, raster);
        fileMetaInformation(out, request.sourceAeTitle);
        return out;
    }

    /** CT or MR Image Storage of a single-frame DICOM source, else null (Secondary Capture). */
    static String keptSopClass(DerivedDicom.Request request) {
        String sopClass = DicomCodec.string(request.source, SOPClassUID);
        boolean kept = request.referencesSource && frameCount(request.source) == 1
                && (sopClass.equals(DerivedDicom.CT_IMAGE) || sopClass.equals(DerivedDicom.MR_IMAGE));
        return kept ? sopClass : null;
    }

    /**
     * The source's dataset for a derived object of the same SOP class, without: file meta information, Pixel Data
     * and what describes the old pixels (smallest/largest values, padding, VOI LUTs and windows, icon), overlays
     * (group 60xx, possibly embedded in the old pixel data), private groups (their meaning is unknown, and may be
     * about the pixels), and what the derived object sets anew (derivation, source references).
     */
    private static AttributeList copyOfSource(AttributeList source) {
        List<AttributeTag> dropped = List.of(PixelData, SmallestImagePixelValue, LargestImagePixelValue,
                new AttributeTag(0x0028, 0x0108), new AttributeTag(0x0028, 0x0109), PixelPaddingValue, PixelPaddingRangeLimit,
                VOILUTSequence, WindowCenter, WindowWidth, WindowCenterWidthExplanation, IconImageSequence,
                DataSetTrailingPadding, SourceImageSequence, DerivationDescription, DerivationCodeSequence,
                NumberOfFrames, PlanarConfiguration, PixelAspectRatio, ReferencedImageEvidenceSequence,
                new AttributeTag(0x0008, 0x9154));
        AttributeList out = new AttributeList();
        for (var e : source.entrySet()) {
            AttributeTag tag = e.getKey();
            if (tag.getGroup() == 0x0002 || tag.getGroup() % 2 == 1 || (tag.getGroup() & 0xFF00) == 0x6000
                    || tag.getElement() == 0 || dropped.contains(tag)) {
                continue;
            }
            out.put(tag, e.getValue());
        }
        return out;
    }

    /**
     * Everything but the pixels and the file meta information: Secondary Capture when {@code keptSopClass} is null,
     * else the source's dataset (CT, MR) with new identity and derivation.
     */
    private static AttributeList header(DerivedDicom.Request request, LocalDateTime now, String keptSopClass)
            throws DicomException {
        AttributeList source = request.source;
        AttributeList out = keptSopClass == null ? new AttributeList() : copyOfSource(source);
        for (AttributeTag tag : IF_PRESENT) {
            if (source.get(tag) != null) {
                out.put(tag, source.get(tag));
            }
        }
        for (AttributeTag tag : KEPT_OR_EMPTY) {
            Attribute a = source.get(tag);
            if (a != null) {
                out.put(tag, a);
            } else {
                out.putNewAttribute(tag);
            }
        }
        String seriesDescription = seriesDescription(request);
        String derivation = request.derivationDescription == null ? null
                : cut(request.derivationDescription.replaceAll("[\\p{Cntrl}&&[^\\r\\n\\f\\e]]", " "),
                        DerivedDicom.MAX_DERIVATION_DESCRIPTION);
        // Our own text may need more than the source's repertoire; when the source declares none (ASCII), UTF-8 is a
        // superset that leaves its strings as they are. A declared character set is kept; unmappable characters of
        // our text then become '?'.
        String ourText = seriesDescription + (derivation == null ? "" : derivation);
        if (out.get(TagFromName.SpecificCharacterSet) == null && !isAscii(ourText)) {
            put(out, TagFromName.SpecificCharacterSet, UTF8, null);
        }
        SpecificCharacterSet charset = charsetOf(out);

        put(out, SOPClassUID, keptSopClass == null ? DerivedDicom.SECONDARY_CAPTURE : keptSopClass, null);
        put(out, SOPInstanceUID, request.takeSopInstanceUid(), null);
        put(out, InstanceCreationDate, date(now), null);
        put(out, InstanceCreationTime, time(now), null);

        String modality = DicomCodec.string(source, Modality);
        put(out, Modality, modality.isEmpty() ? "OT" : modality, null);
        put(out, SeriesInstanceUID, request.seriesInstanceUid, null);
        put(out, SeriesNumber, Integer.toString(seriesNumber(source)), null);
        put(out, SeriesDate, date(request.seriesCreated), null);
        put(out, SeriesTime, time(request.seriesCreated), null);
        put(out, SeriesDescription, seriesDescription, charset);

        if (keptSopClass == null) {
            put(out, ConversionType, "WSD", null); // workstation
            put(out, SecondaryCaptureDeviceManufacturer, MANUFACTURER, null);
            put(out, SecondaryCaptureDeviceSoftwareVersions, SOFTWARE_VERSION, null);
        }

        put(out, InstanceNumber, Integer.toString(instanceNumber(request)), null);
        if (keptSopClass == null) {
            out.putNewAttribute(PatientOrientation); // Type 2C: an SC image has no patient geometry
        }
        put(out, ContentDate, date(now), null);
        put(out, ContentTime, time(now), null);
        if (keptSopClass == null) {
            put(out, DateOfSecondaryCapture, date(now), null);
            put(out, TimeOfSecondaryCapture, time(now), null);
        }
        Attribute imageType = put(out, ImageType, "DERIVED", null);
        imageType.addValue("SECONDARY");
        if (keptSopClass != null) {
            // CT and MR define value 3 (AXIAL, LOCALIZER; image flavour) and on: they still describe the image
            String[] values = source.get(ImageType) == null ? null : source.get(ImageType).getStringValues();
            for (int i = 2; values != null && i < values.length; i++) {
                imageType.addValue(values[i]);
            }
        }
        if (derivation != null) {
            put(out, DerivationDescription, derivation, charset);
        }
        if (!request.derivationCodes.isEmpty()) {
            SequenceAttribute codes = new SequenceAttribute(DerivationCodeSequence);
            for (DerivationCode code : request.derivationCodes) {
                codes.addItem(new CodedSequenceItem(code.value(), DerivationCode.SCHEME, code.meaning())
                        .getAttributeList());
            }
            out.put(DerivationCodeSequence, codes);
        }
        if (request.referencesSource) {
            out.put(SourceImageSequence, sourceReference(request));
        }
        contributingEquipment(out, request, now, keptSopClass != null);
        lossyFromTransferSyntax(source, out);
        return out;
    }

    /** One Contributing Equipment Sequence item per {@link DerivedDicom.Contributor}, after the source's own. */
    private static void contributingEquipment(AttributeList out, DerivedDicom.Request request, LocalDateTime now,
            boolean keepSourceItems) throws DicomException {
        if (request.contributors.isEmpty()) {
            return;
        }
        SequenceAttribute sequence = new SequenceAttribute(ContributingEquipmentSequence);
        if (keepSourceItems && request.source.get(ContributingEquipmentSequence) instanceof SequenceAttribute old) {
            for (int i = 0; i < old.getNumberOfItems(); i++) {
                sequence.addItem(old.getItem(i));
            }
        }
        for (DerivedDicom.Contributor c : request.contributors) {
            AttributeList item = new AttributeList();
            put(item, Manufacturer, MANUFACTURER, null);
            put(item, ManufacturerModelName, cut(c.modelName(), DerivedDicom.MAX_LO), null);
            Attribute versions = put(item, SoftwareVersions, cut(c.version().isEmpty() ? "unknown" : c.version(),
                    DerivedDicom.MAX_LO), null);
            if (!c.sha256().isEmpty()) {
                versions.addValue(c.sha256());
            }
            SequenceAttribute purpose = new SequenceAttribute(PurposeOfReferenceCodeSequence);
            purpose.addItem(new CodedSequenceItem("109103", "DCM", "Modifying Equipment").getAttributeList());
            item.put(PurposeOfReferenceCodeSequence, purpose);
            Attribute when = new com.pixelmed.dicom.DateTimeAttribute(CONTRIBUTION_DATE_TIME);
            when.addValue(DATE.format(now) + TIME.format(now));
            item.put(when);
            String text = c.description() + (c.sha256().isEmpty() ? "" : (c.description().isEmpty() ? "" : "; ")
                    + "sha256:" + c.sha256());
            if (!text.isEmpty()) {
                put(item, ContributionDescription, cut(text.replaceAll("\\p{Cntrl}", " "), 1024), null);
            }
            sequence.addItem(item);
        }
        out.put(ContributingEquipmentSequence, sequence);
    }

    /**
     * Image Pixel module for grey stored values: the source's MONOCHROME1/2 (MONOCHROME2 when it had another),
     * Bits Stored and Pixel Representation of the raster, Bits Allocated 16 (8 when the raster and the source are
     * both 8-bit), the source's rescale (with Rescale Type "US" for a Secondary Capture that lacks one) and the
     * request's window, else the source's windows.
     */
    private static void greyPixels(AttributeList out, DerivedDicom.Request request, GrayRaster16 raster)
            throws DicomException {
        AttributeList source = request.source;
        String photometric = DicomCodec.string(source, PhotometricInterpretation);
        long sourceAllocated = parse(source, BitsAllocated, 16);
        int allocated = raster.bitsStored() <= 8 && sourceAllocated == 8 ? 8 : 16;
        putInt(out, SamplesPerPixel, 1);
        put(out, PhotometricInterpretation, photometric.equals("MONOCHROME1") ? "MONOCHROME1" : "MONOCHROME2", null);
        out.remove(PlanarConfiguration);
        putInt(out, Rows, raster.height());
        putInt(out, Columns, raster.width());
        putInt(out, BitsAllocated, allocated);
        putInt(out, BitsStored, raster.bitsStored());
        putInt(out, HighBit, raster.bitsStored() - 1);
        putInt(out, PixelRepresentation, raster.signed() ? 1 : 0);
        if (out.get(RescaleSlope) == null && (source.get(RescaleSlope) != null || source.get(RescaleIntercept) != null)) {
            put(out, RescaleIntercept, orDefault(source, RescaleIntercept, "0"), null);
            put(out, RescaleSlope, orDefault(source, RescaleSlope, "1"), null);
            put(out, RescaleType, orDefault(source, RescaleType, "US"), null);
        }
        if (request.window != null) {
            put(out, WindowCenter, decimal(request.window.center()), null);
            put(out, WindowWidth, decimal(request.window.width()), null);
        } else if (source.get(WindowCenter) != null && source.get(WindowWidth) != null) {
            out.put(WindowCenter, source.get(WindowCenter));
            out.put(WindowWidth, source.get(WindowWidth));
        }
        short[] words = raster.words();
        if (allocated == 8) {
            byte[] bytes = new byte[words.length];
            for (int i = 0; i < bytes.length; i++) {
                bytes[i] = (byte) words[i];
            }
            OtherByteAttribute pixelData = new OtherByteAttribute(PixelData);
            pixelData.setValues(bytes);
            out.put(PixelData, pixelData);
        } else {
            OtherWordAttribute pixelData = new OtherWordAttribute(PixelData);
            pixelData.setValues(words.clone());
            out.put(PixelData, pixelData);
        }
    }

    private static String orDefault(AttributeList list, AttributeTag tag, String fallback) {
        String v = DicomCodec.string(list, tag);
        return v.isEmpty() ? fallback : v;
    }

    /** A DS value (at most 16 characters) for a window parameter. */
    static String decimal(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String text = new java.math.BigDecimal(v).round(new java.math.MathContext(10)).stripTrailingZeros()
                .toPlainString();
        return text.length() <= 16 ? text : String.format(java.util.Locale.ROOT, "%.6e", v);
    }

    private static SequenceAttribute sourceReference(DerivedDicom.Request request) throws DicomException {
        AttributeList item = new AttributeList();
        put(item, ReferencedSOPClassUID, DicomCodec.string(request.source, SOPClassUID), null);
        put(item, ReferencedSOPInstanceUID, DicomCodec.string(request.source, SOPInstanceUID), null);
        if (request.sourceFrame >= 0 && frameCount(request.source) > 1) {
            put(item, ReferencedFrameNumber, Integer.toString(request.sourceFrame + 1), null); // numbered from 1
        }
        SequenceAttribute sequence = new SequenceAttribute(SourceImageSequence);
        sequence.addItem(item);
        return sequence;
    }

    /** Pixels derived from JPEG (lossy) data are lossy too, even if the source did not say so (PS3.3 C.7.6.1.1.5). */
    private static void lossyFromTransferSyntax(AttributeList source, AttributeList out) throws DicomException {
        String ts = DicomCodec.string(source, TransferSyntaxUID);
        if (out.get(LossyImageCompression) == null
                && (ts.equals("1.2.840.10008.1.2.4.50") || ts.equals("1.2.840.10008.1.2.4.51"))) {
            put(out, LossyImageCompression, "01", null);
            put(out, LossyImageCompressionMethod, "ISO_10918_1", null);
        }
    }

    /** Image Pixel module: 8-bit MONOCHROME2 when every pixel is grey (a third of the size), otherwise RGB. */
    private static void pixels(AttributeList out, Raster raster) throws DicomException {
        byte[] rgb = raster.rgb();
        boolean grey = isGrey(rgb);
        putInt(out, SamplesPerPixel, grey ? 1 : 3);
        put(out, PhotometricInterpretation, grey ? "MONOCHROME2" : "RGB", null);
        if (!grey) {
            putInt(out, PlanarConfiguration, 0); // R,G,B interleaved as in the raster
        }
        putInt(out, Rows, raster.height());
        putInt(out, Columns, raster.width());
        putInt(out, BitsAllocated, 8);
        putInt(out, BitsStored, 8);
        putInt(out, HighBit, 7);
        putInt(out, PixelRepresentation, 0);
        if (grey) {
            put(out, WindowCenter, WINDOW_CENTER, null);
            put(out, WindowWidth, WINDOW_WIDTH, null);
        }
        byte[] samples = rgb;
        if (grey) {
            samples = new byte[rgb.length / 3];
            for (int p = 0; p < samples.length; p++) {
                samples[p] = rgb[3 * p];
            }
        }
        OtherByteAttribute pixelData = new OtherByteAttribute(PixelData);
        pixelData.setValues(samples);
        out.put(PixelData, pixelData);
    }

    /**
     * File meta information from PixelMed, with our Implementation Class UID and Version Name instead of PixelMed's.
     * PixelMed has already summed the group length, so it is corrected by the change in length of the two values.
     */
    private static void fileMetaInformation(AttributeList out, String aeTitle) throws DicomException {
        FileMetaInformation.addFileMetaInformation(out, DicomCodec.EXPLICIT_LE, aeTitle);
        long before = out.get(ImplementationClassUID).getPaddedVL() + out.get(ImplementationVersionName)
                .getPaddedVL();
        put(out, ImplementationClassUID, Uids.IMPLEMENTATION_CLASS_UID, null);
        put(out, ImplementationVersionName, Uids.IMPLEMENTATION_VERSION_NAME, null);
        long after = out.get(ImplementationClassUID).getPaddedVL() + out.get(ImplementationVersionName)
                .getPaddedVL();
        UnsignedLongAttribute length = new UnsignedLongAttribute(FileMetaInformationGroupLength);
        length.addValue(out.get(FileMetaInformationGroupLength).getSingleLongValueOrDefault(0) + after - before);
        out.put(FileMetaInformationGroupLength, length);
    }

    /** The identification of a built object, as {@link DicomCodec} reports it for objects it reads. */
    static DicomAttributes describe(AttributeList list) {
        return new DicomAttributes(DicomCodec.string(list, PatientID), DicomCodec.string(list, PatientName),
                DicomCodec.string(list, StudyInstanceUID), DicomCodec.string(list, SeriesInstanceUID),
                DicomCodec.string(list, SOPInstanceUID), DicomCodec.string(list, SOPClassUID),
                DicomCodec.string(list, Modality), DicomCodec.string(list, TransferSyntaxUID));
    }

    private static String seriesDescription(DerivedDicom.Request request) {
        String text = request.seriesDescription;
        if (text == null) {
            String base = DicomCodec.string(request.source, SeriesDescription);
            text = base.isEmpty() ? "Filtered" : cut(base, DerivedDicom.MAX_LO - SUFFIX.length()) + SUFFIX;
        }
        // LO: no backslash (it separates values), no control characters
        return cut(text.replace('\\', '/').replaceAll("\\p{Cntrl}", " "), DerivedDicom.MAX_LO);
    }

    /** The source's Series Number + 1000, so the derived series sorts after the source's; 999 when it has none. */
    private static int seriesNumber(AttributeList source) {
        long n = parse(source, SeriesNumber, -1);
        return n >= 0 && n + 1000 <= Integer.MAX_VALUE ? (int) n + 1000 : 999;
    }

    private static int instanceNumber(DerivedDicom.Request request) {
        if (request.instanceNumber > 0) {
            return request.instanceNumber;
        }
        if (request.sourceFrame >= 0 && frameCount(request.source) > 1) {
            return request.sourceFrame + 1;
        }
        long n = parse(request.source, InstanceNumber, 1);
        return n >= 1 && n <= Integer.MAX_VALUE ? (int) n : 1;
    }

    static int frameCount(AttributeList source) {
        long n = parse(source, NumberOfFrames, 1);
        return n >= 1 && n <= Integer.MAX_VALUE ? (int) n : 1;
    }

    private static long parse(AttributeList list, AttributeTag tag, long absent) {
        try {
            String text = DicomCodec.string(list, tag);
            return text.isEmpty() ? absent : Long.parseLong(text);
        } catch (NumberFormatException e) {
            return absent;
        }
    }

    /** Puts a new attribute (VR from the dictionary) with {@code value}, none when it is empty. */
    static Attribute put(AttributeList list, AttributeTag tag, String value, SpecificCharacterSet charset)
            throws DicomException {
        Attribute a = list.putNewAttribute(tag, charset);
        if (!value.isEmpty()) {
            a.addValue(value);
        }
        return a;
    }

    private static void putInt(AttributeList list, AttributeTag tag, int value) throws DicomException {
        list.putNewAttribute(tag).addValue(value);
    }

    /** The character set declared in {@code list}, or null for the default repertoire. */
    static SpecificCharacterSet charsetOf(AttributeList list) throws DicomException {
        Attribute a = list.get(TagFromName.SpecificCharacterSet);
        return a == null || a.getVM() == 0 ? null : new SpecificCharacterSet(a.getStringValues());
    }

    /** At most {@code max} chars, not splitting a surrogate pair. */
    private static String cut(String s, int max) {
        if (s.length() <= max) {
            return s;
        }
        return s.substring(0, Character.isHighSurrogate(s.charAt(max - 1)) ? max - 1 : max);
    }

    static boolean isAscii(String s) {
        return s.chars().allMatch(c -> c < 0x80);
    }

    private static boolean isGrey(byte[] rgb) {
        for (int i = 0; i < rgb.length; i += 3) {
            if (rgb[i] != rgb[i + 1] || rgb[i] != rgb[i + 2]) {
                return false;
            }
        }
        return true;
    }

    static String date(LocalDateTime t) {
        return DATE.format(t);
    }

    static String time(LocalDateTime t) {
        return TIME.format(t);
    }
}
