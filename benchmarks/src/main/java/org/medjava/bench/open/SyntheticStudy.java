package org.medjava.bench.open;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.OtherByteAttribute;
import com.pixelmed.dicom.OtherWordAttribute;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.TransferSyntax;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * The study-open benchmark's studies, explicit VR little endian, uncompressed, none of them an acquisition: one
 * phantom (a body ellipse; lungs whose size follows the position along the series; a spine; air around) and seeded
 * noise, so that a lossless compression has work to do. Their sizes, bit depths and geometry are real ones'; OHIF
 * orders, scrolls and windows them as such.
 * <ul>
 *   <li>{@link #ct}: one series of axial 512² slices, CT Image Storage, 16-bit signed Hounsfield units (tissue 40,
 *       lung -800, bone 700, air -1000, ±10 of noise), 1.25 mm apart — 0.5 MB a slice;</li>
 *   <li>{@link #us}: one Ultrasound Multi-frame object, 640×480 8-bit MONOCHROME2 frames (speckle over the
 *       phantom, which breathes from frame to frame) — 0.3 MB a frame;</li>
 *   <li>{@link #mr}: four series of 256² axial 16-bit unsigned MR slices (the same positions, four contrasts: the
 *       tissues' intensities permuted), 5 mm apart — 128 KB a slice.</li>
 * </ul>
 */
final class SyntheticStudy {
    private static final String CT_IMAGE_STORAGE = "1.2.840.10008.5.1.4.1.1.2";
    private static final String MR_IMAGE_STORAGE = "1.2.840.10008.5.1.4.1.1.4";
    private static final String US_MULTIFRAME_STORAGE = "1.2.840.10008.5.1.4.1.1.3.1";
    /** MR intensities of air, tissue, lung and bone, one row a series (T1-, T2-, PD-weighted, FLAIR-like). */
    private static final int[][] MR_CONTRASTS = {{0, 900, 120, 300}, {0, 500, 200, 1400}, {0, 800, 150, 700},
        {0, 600, 60, 200}};

    private SyntheticStudy() {
    }

    /**
     * The study's UIDs, the series a viewer opens, its number of frames (all slices, or all frames of the US), and
     * every file written (series after series, in slice order).
     */
    record Study(String studyUid, String seriesUid, int frames, List<Path> files) {
    }

    static Study ct(Path dir, int slices, long seed) throws IOException {
        Writer w = new Writer(dir, seed, "CT", "Synthetic CT " + slices + " x 512x512 (not an acquisition)");
        String series = w.uid();
        for (int n = 0; n < slices; n++) {
            AttributeList list = w.instance(CT_IMAGE_STORAGE, series, "2", n, -n * 1.25, 512, 512, 0.625, 1.25);
            w.pixelModule(list, 16, true, "40", "400");
            w.put(list, TagFromName.RescaleIntercept, "0");
            w.put(list, TagFromName.RescaleSlope, "1");
            w.put(list, TagFromName.RescaleType, "HU");
            int[] hu = {-1000, 40, -800, 700};
            short[] px = new short[512 * 512];
            double phase = position(n, slices);
            for (int i = 0; i < px.length; i++) {
                px[i] = (short) (hu[tissue(i % 512, i / 512, 512, phase)] + w.random.nextInt(21) - 10);
            }
            w.write(list, words(px), String.format("ct-%03d.dcm", n + 1));
        }
        return new Study(w.study, series, slices, w.files);
    }

    static Study us(Path dir, int frames, long seed) throws IOException {
        Writer w = new Writer(dir, seed, "US", "Synthetic US " + frames + " frames 640x480 (not an acquisition)");
        String series = w.uid();
        AttributeList list = w.instance(US_MULTIFRAME_STORAGE, series, "1", 0, 0, 480, 640, 0.2, 0);
        list.remove(TagFromName.ImagePositionPatient);
        list.remove(TagFromName.ImageOrientationPatient);
        list.remove(TagFromName.SliceLocation);
        list.remove(TagFromName.SliceThickness);
        w.put(list, TagFromName.NumberOfFrames, Integer.toString(frames));
        w.put(list, TagFromName.FrameTime, "33.3");
        try {
            var pointer = new com.pixelmed.dicom.AttributeTagAttribute(TagFromName.FrameIncrementPointer);
            pointer.addValue(TagFromName.FrameTime);
            list.put(pointer);
        } catch (DicomException e) {
            throw new IOException(e.getMessage(), e);
        }
        w.pixelModule(list, 8, false, null, null);
        int[] grey = {0, 110, 40, 220};
        byte[] px = new byte[frames * 640 * 480];
        for (int f = 0; f < frames; f++) {
            double phase = 0.5 + 0.5 * Math.sin(2 * Math.PI * f / frames);
            for (int i = 0; i < 640 * 480; i++) {
                int g = grey[tissue(i % 640, i / 640, 640, phase)];
                px[f * 640 * 480 + i] = (byte) (g == 0 ? 0 : Math.min(255, g * (0.5 + w.random.nextDouble())));
            }
        }
        Attribute pixels = new OtherByteAttribute(TagFromName.PixelData);
        try {
            pixels.setValues(px);
        } catch (DicomException e) {
            throw new IOException(e.getMessage(), e);
        }
        w.write(list, pixels, "us.dcm");
        return new Study(w.study, series, frames, w.files);
    }

    static Study mr(Path dir, int seriesCount, int slices, long seed) throws IOException {
        Writer w = new Writer(dir, seed, "MR", null);
        String first = null;
        for (int s = 0; s < seriesCount; s++) {
            String series = w.uid();
            first = first == null ? series : first;
            int[] contrast = MR_CONTRASTS[s % MR_CONTRASTS.length];
            for (int n = 0; n < slices; n++) {
                AttributeList list = w.instance(MR_IMAGE_STORAGE, series, Integer.toString(s + 1), n, -n * 5.0, 256,
                        256, 0.9375, 5);
                w.put(list, TagFromName.SeriesDescription, "Synthetic MR contrast " + (s + 1)
                        + " (not an acquisition)");
                w.pixelModule(list, 12, false, "600", "1200");
                short[] px = new short[256 * 256];
                double phase = position(n, slices);
                for (int i = 0; i < px.length; i++) {
                    int v = contrast[tissue(i % 256, i / 256, 256, phase)];
                    px[i] = (short) (v == 0 ? w.random.nextInt(8) : v + w.random.nextInt(41) - 20);
                }
                w.write(list, words(px), String.format("mr-%d-%03d.dcm", s + 1, n + 1));
            }
        }
        return new Study(w.study, first, slices, w.files);
    }

    /** 0 at the ends of a series, 1 in its middle. */
    private static double position(int n, int count) {
        return Math.sin(Math.PI * n / Math.max(1, count - 1));
    }

    /** The phantom at (x, y) of a {@code side}-wide image: 0 air, 1 soft tissue, 2 lung, 3 bone. */
    static int tissue(int x, int y, int side, double phase) {
        double s = side / 512.0;
        double bx = (x - 256 * s) / (220 * s);
        double by = (y - 256 * s * 0.9) / (160 * s);
        if (bx * bx + by * by > 1) {
            return 0;
        }
        double a = (60 + 50 * phase) * s;
        double b = (90 + 60 * phase) * s;
        if (inEllipse(x, y, 170 * s, 240 * s * 0.9, a, b) || inEllipse(x, y, 342 * s, 240 * s * 0.9, a, b)) {
            return 2;
        }
        return inEllipse(x, y, 256 * s, 360 * s * 0.9, 28 * s, 26 * s) ? 3 : 1;
    }

    private static boolean inEllipse(int x, int y, double cx, double cy, double a, double b) {
        double dx = (x - cx) / a;
        double dy = (y - cy) / b;
        return dx * dx + dy * dy <= 1;
    }

    private static Attribute words(short[] px) throws IOException {
        Attribute pixels = new OtherWordAttribute(TagFromName.PixelData);
        try {
            pixels.setValues(px);
        } catch (DicomException e) {
            throw new IOException(e.getMessage(), e);
        }
        return pixels;
    }

    /** One study's UIDs, seeded noise and the files written so far. */
    private static final class Writer {
        final Path dir;
        final SplittableRandom random;
        final String modality;
        final String description;
        final String study;
        final String frameOfReference;
        final List<Path> files = new ArrayList<>();

        Writer(Path dir, long seed, String modality, String description) throws IOException {
            this.dir = Files.createDirectories(dir);
            this.random = new SplittableRandom(seed);
            this.modality = modality;
            this.description = description;
            this.study = uid();
            this.frameOfReference = uid();
        }

        String uid() {
            return "2.25." + new BigInteger(120, new Random(random.nextLong()));
        }

        AttributeList instance(String sopClass, String series, String seriesNumber, int n, double z, int rows,
                               int columns, double spacing, double thickness) throws IOException {
            AttributeList list = new AttributeList();
            put(list, TagFromName.SOPClassUID, sopClass);
            put(list, TagFromName.SOPInstanceUID, uid());
            put(list, TagFromName.StudyDate, "20260101");
            put(list, TagFromName.StudyTime, "120000");
            put(list, TagFromName.Modality, modality);
            put(list, TagFromName.StudyDescription, "Study-open benchmark " + modality);
            if (description != null) {
                put(list, TagFromName.SeriesDescription, description);
            }
            put(list, TagFromName.PatientName, "Bench^StudyOpen" + modality);
            put(list, TagFromName.PatientID, "BENCH-OPEN-" + modality);
            put(list, TagFromName.AccessionNumber, "OPEN34" + modality);
            put(list, TagFromName.StudyInstanceUID, study);
            put(list, TagFromName.SeriesInstanceUID, series);
            put(list, TagFromName.FrameOfReferenceUID, frameOfReference);
            put(list, TagFromName.StudyID, "1");
            put(list, TagFromName.SeriesNumber, seriesNumber);
            put(list, TagFromName.InstanceNumber, Integer.toString(n + 1));
            put(list, TagFromName.ImagePositionPatient, "-160", "-160", String.format(Locale.ROOT, "%.2f", z));
            put(list, TagFromName.ImageOrientationPatient, "1", "0", "0", "0", "1", "0");
            put(list, TagFromName.SliceLocation, String.format(Locale.ROOT, "%.2f", z));
            put(list, TagFromName.SliceThickness, Double.toString(thickness));
            put(list, TagFromName.PixelSpacing, Double.toString(spacing), Double.toString(spacing));
            put(list, TagFromName.ImageType, "ORIGINAL", "PRIMARY", "AXIAL");
            put(list, TagFromName.SamplesPerPixel, "1");
            put(list, TagFromName.PhotometricInterpretation, "MONOCHROME2");
            put(list, TagFromName.Rows, Integer.toString(rows));
            put(list, TagFromName.Columns, Integer.toString(columns));
            return list;
        }

        /** Bits allocated 8 or 16 (for {@code stored} up to 8 or more), and a default window when given. */
        void pixelModule(AttributeList list, int stored, boolean signed, String center, String width)
                throws IOException {
            put(list, TagFromName.BitsAllocated, stored <= 8 ? "8" : "16");
            put(list, TagFromName.BitsStored, Integer.toString(stored));
            put(list, TagFromName.HighBit, Integer.toString(stored - 1));
            put(list, TagFromName.PixelRepresentation, signed ? "1" : "0");
            if (center != null) {
                put(list, TagFromName.WindowCenter, center);
                put(list, TagFromName.WindowWidth, width);
            }
        }

        void put(AttributeList list, AttributeTag tag, String... values) throws IOException {
            try {
                Attribute attribute = list.putNewAttribute(tag);
                for (String v : values) {
                    attribute.addValue(v);
                }
            } catch (DicomException e) {
                throw new IOException(tag + ": " + e.getMessage(), e);
            }
        }

        void write(AttributeList list, Attribute pixels, String name) throws IOException {
            Path file = dir.resolve(name);
            try {
                list.put(pixels);
                FileMetaInformation.addFileMetaInformation(list, TransferSyntax.ExplicitVRLittleEndian, "MEDJAVA");
                list.write(file.toString(), TransferSyntax.ExplicitVRLittleEndian, true, true);
            } catch (DicomException e) {
                throw new IOException("writing " + file + ": " + e.getMessage(), e);
            }
            files.add(file);
        }
    }
}
