package org.medjava.bench.open;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.OtherWordAttribute;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.TransferSyntax;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The study-open benchmark's CT: one series of {@code slices} axial 512² slices, CT Image Storage, 16-bit signed,
 * explicit VR little endian, uncompressed (0.5 MB a slice), 1.25 mm apart. Not a real acquisition: a body ellipse
 * of soft tissue (40 HU) with a spine (700 HU), lungs (-800 HU) whose size follows the slice, air around, and ±10 HU of
 * seeded noise so that a lossless compression has work to do. Its size, bit depth and geometry are a CT's; OHIF
 * orders, scrolls and windows it as one.
 */
final class SyntheticCt {
    static final int SIDE = 512;
    private static final String CT_IMAGE_STORAGE = "1.2.840.10008.5.1.4.1.1.2";

    private SyntheticCt() {
    }

    /** The study's UIDs and the files written (in slice order). */
    record Study(String studyUid, String seriesUid, List<Path> files) {
    }

    static Study write(Path dir, int slices, long seed) throws IOException {
        Files.createDirectories(dir);
        SplittableRandom random = new SplittableRandom(seed);
        String study = uid(random);
        String series = uid(random);
        String frameOfReference = uid(random);
        List<Path> files = new ArrayList<>();
        for (int n = 0; n < slices; n++) {
            Path file = dir.resolve(String.format("ct-%03d.dcm", n + 1));
            try {
                AttributeList list = header(study, series, frameOfReference, uid(random), n, slices);
                OtherWordAttribute pixels = new OtherWordAttribute(TagFromName.PixelData);
                pixels.setValues(slice(n, slices, random));
                list.put(pixels);
                FileMetaInformation.addFileMetaInformation(list, TransferSyntax.ExplicitVRLittleEndian, "MEDJAVA");
                list.write(file.toString(), TransferSyntax.ExplicitVRLittleEndian, true, true);
            } catch (DicomException e) {
                throw new IOException("writing " + file + ": " + e.getMessage(), e);
            }
            files.add(file);
        }
        return new Study(study, series, files);
    }

    private static AttributeList header(String study, String series, String frameOfReference, String instance, int n,
                                        int slices) throws DicomException {
        AttributeList list = new AttributeList();
        put(list, TagFromName.SOPClassUID, CT_IMAGE_STORAGE);
        put(list, TagFromName.SOPInstanceUID, instance);
        put(list, TagFromName.StudyDate, "20260101");
        put(list, TagFromName.StudyTime, "120000");
        put(list, TagFromName.Modality, "CT");
        put(list, TagFromName.StudyDescription, "Study-open benchmark");
        put(list, TagFromName.SeriesDescription, "Synthetic CT " + slices + " x 512x512 (not an acquisition)");
        put(list, TagFromName.PatientName, "Bench^StudyOpen");
        put(list, TagFromName.PatientID, "BENCH-OPEN");
        put(list, TagFromName.AccessionNumber, "OPEN34");
        put(list, TagFromName.StudyInstanceUID, study);
        put(list, TagFromName.SeriesInstanceUID, series);
        put(list, TagFromName.FrameOfReferenceUID, frameOfReference);
        put(list, TagFromName.StudyID, "1");
        put(list, TagFromName.SeriesNumber, "2");
        put(list, TagFromName.InstanceNumber, Integer.toString(n + 1));
        put(list, TagFromName.ImagePositionPatient, "-160", "-160", String.format("%.2f", -n * 1.25));
        put(list, TagFromName.ImageOrientationPatient, "1", "0", "0", "0", "1", "0");
        put(list, TagFromName.SliceLocation, String.format("%.2f", -n * 1.25));
        put(list, TagFromName.SliceThickness, "1.25");
        put(list, TagFromName.PixelSpacing, "0.625", "0.625");
        put(list, TagFromName.ImageType, "ORIGINAL", "PRIMARY", "AXIAL");
        put(list, TagFromName.SamplesPerPixel, "1");
        put(list, TagFromName.PhotometricInterpretation, "MONOCHROME2");
        put(list, TagFromName.Rows, Integer.toString(SIDE));
        put(list, TagFromName.Columns, Integer.toString(SIDE));
        put(list, TagFromName.BitsAllocated, "16");
        put(list, TagFromName.BitsStored, "16");
        put(list, TagFromName.HighBit, "15");
        put(list, TagFromName.PixelRepresentation, "1");
        put(list, TagFromName.RescaleIntercept, "0");
        put(list, TagFromName.RescaleSlope, "1");
        put(list, TagFromName.RescaleType, "HU");
        put(list, TagFromName.WindowCenter, "40");
        put(list, TagFromName.WindowWidth, "400");
        return list;
    }

    /** Hounsfield units of slice {@code n}: body, lungs that grow and shrink along the series, spine, noise. */
    static short[] slice(int n, int slices, SplittableRandom random) {
        short[] px = new short[SIDE * SIDE];
        double phase = Math.sin(Math.PI * n / Math.max(1, slices - 1)); // 0 at the ends, 1 in the middle
        double lungA = 60 + 50 * phase;
        double lungB = 90 + 60 * phase;
        for (int y = 0; y < SIDE; y++) {
            for (int x = 0; x < SIDE; x++) {
                double bx = (x - 256) / 220.0;
                double by = (y - 256) / 160.0;
                int hu;
                if (bx * bx + by * by > 1) {
                    hu = -1000;
                } else if (inEllipse(x, y, 170, 240, lungA, lungB) || inEllipse(x, y, 342, 240, lungA, lungB)) {
                    hu = -800;
                } else if (inEllipse(x, y, 256, 360, 28, 26)) {
                    hu = 700;
                } else {
                    hu = 40;
                }
                px[y * SIDE + x] = (short) (hu + random.nextInt(21) - 10);
            }
        }
        return px;
    }

    private static boolean inEllipse(int x, int y, double cx, double cy, double a, double b) {
        double dx = (x - cx) / a;
        double dy = (y - cy) / b;
        return dx * dx + dy * dy <= 1;
    }

    private static void put(AttributeList list, AttributeTag tag, String... values) throws DicomException {
        var attribute = list.putNewAttribute(tag);
        for (String v : values) {
            attribute.addValue(v);
        }
    }

    private static String uid(SplittableRandom random) {
        return "2.25." + new BigInteger(120, new java.util.Random(random.nextLong()));
    }
}
