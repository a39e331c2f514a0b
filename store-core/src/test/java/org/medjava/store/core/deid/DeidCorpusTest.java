package org.medjava.store.core.deid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TagFromName;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.medjava.store.testkit.Samples;

/**
 * The public samples de-identified as files: transfer syntax and pixel data kept byte for byte, the result read by
 * pydicom (an independent reader), and checked against an independent de-identifier, dicom-anonymizer (PS3.15 2026c
 * Basic Profile; bootstrap/install-deps.sh --test installs it): nothing it removes or replaces keeps its identifying
 * value in ours. The Python half is skipped, with the reason, where python3 lacks pydicom or dicomanonymizer.
 */
class DeidCorpusTest {

    /**
     * Where our result keeps a value dicom-anonymizer replaces, on purpose (docs/deidentification.md): inside a
     * sequence given a dummy (D, or X/D made D: an SR's Content Sequence, a waveform's Waveform Annotation Sequence),
     * the tool replaces or removes every value; we keep the structure (relationship and value types, coded concepts,
     * references and numbers) and replace the rest (text, names, dates, UIDs).
     */
    private static final Set<String> DELIBERATE = Set.of("RelationshipType", "ValueType", "ContinuityOfContent",
            "CodeValue", "CodingSchemeDesignator", "CodingSchemeVersion", "CodeMeaning", "CodingSchemeUID",
            "NumericValue", "MappingResource", "ContextIdentifier", "TemporalRangeType", "GraphicType",
            "GraphicData", "ReferencedSOPClassUID", "ReferencedContentItemIdentifier", "ReferencedFrameNumber",
            "ReferencedTimeOffsets", "ReferencedWaveformChannels", "ReferencedSamplePositions",
            "AnnotationGroupNumber");

    static Stream<Path> samples() {
        List<Path> files = new ArrayList<>();
        for (String name : List.of("CT_small.dcm", "MR_small.dcm", "MR_small_implicit.dcm", "MR_small_bigendian.dcm",
                "MR_small_RLE.dcm", "JPEG-lossy.dcm", "JPEG2000.dcm", "MR_small_jpeg_ls_lossless.dcm",
                "SC_rgb_jpeg_dcmtk.dcm", "examples_overlay.dcm", "examples_ybr_color.dcm", "examples_rgb_color.dcm",
                "ExplVR_BigEnd.dcm", "image_dfl.dcm", "liver_1frame.dcm", "rtdose.dcm")) {
            files.add(Samples.dicom(name));
        }
        for (String name : List.of("test-SR.dcm", "reportsi.dcm", "kos.dcm", "gsps.dcm", "rtplan.dcm", "rtstruct.dcm",
                "waveform_ecg.dcm", "raw.dcm")) {
            files.add(Samples.sopClass(name));
        }
        return files.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void deidentifiedFileKeepsPixelsAndPassesTheIndependentCheck(Path original, @TempDir Path dir) throws Exception {
        Path ours = dir.resolve("deid.dcm");
        Deidentifier engine = new Deidentifier(DeidOptions.basic(),
                new UidMap("corpus test job secret".getBytes(StandardCharsets.US_ASCII)));
        DeidResult result;
        try (OutputStream out = Files.newOutputStream(ours)) {
            result = engine.deidentify(original, out);
        }
        AttributeList before = read(original);
        AttributeList after = read(ours);
        assertEquals(value(before, TagFromName.TransferSyntaxUID), value(after, TagFromName.TransferSyntaxUID));
        assertEquals(value(after, TagFromName.SOPInstanceUID), value(after, TagFromName.MediaStorageSOPInstanceUID));
        assertNotEquals(value(before, TagFromName.SOPInstanceUID), value(after, TagFromName.SOPInstanceUID));
        assertEquals("YES", value(after, TagFromName.PatientIdentityRemoved));
        if (before.get(TagFromName.PixelData) != null) {
            assertTrue(java.util.Objects.deepEquals(pixels(before.get(TagFromName.PixelData)),
                    pixels(after.get(TagFromName.PixelData))), "pixel data byte for byte");
        }
        if (Set.of("US", "OT").contains(value(before, TagFromName.Modality))
                && before.get(TagFromName.BurnedInAnnotation) == null) {
            assertTrue(result.pixelsNeedReview(), "flagged for burned-in text");
        }

        String python = python();
        assumeTrue(python != null, "python3 with pydicom and dicomanonymizer not found (bootstrap/install-deps.sh"
                + " --test installs them): the independent check is skipped");
        Path script = dir.resolve("deid_check.py");
        try (InputStream in = getClass().getResourceAsStream("deid_check.py")) {
            Files.copy(in, script);
        }
        String output = run(python, script.toString(), original.toString(), ours.toString());
        assertTrue(output.strip().endsWith("DONE"), output);
        List<String> problems = new ArrayList<>();
        for (String line : output.split("\n")) {
            String keyword = line.substring(line.lastIndexOf(' ') + 1);
            if (line.startsWith("PROBLEM") || line.startsWith("LEAK") && !DELIBERATE.contains(keyword)) {
                problems.add(line);
            }
        }
        assertEquals(List.of(), problems, original.getFileName() + ": " + output);
    }

    private static Object pixels(Attribute a) throws Exception {
        if (a instanceof com.pixelmed.dicom.OtherByteAttributeMultipleCompressedFrames frames) {
            return frames.getFrames();
        }
        return a instanceof com.pixelmed.dicom.OtherWordAttribute ? a.getShortValues() : a.getByteValues();
    }

    private static AttributeList read(Path file) throws Exception {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (DicomInputStream in = new DicomInputStream(Files.newInputStream(file))) {
            list.read(in);
        }
        return list;
    }

    private static String value(AttributeList list, com.pixelmed.dicom.AttributeTag tag) {
        return Attribute.getSingleStringValueOrEmptyString(list, tag);
    }

    /** A python3 that has pydicom and dicomanonymizer (the one on the PATH, else Debian's), or null. */
    private static String python() throws Exception {
        for (String python : List.of("python3", "/usr/bin/python3")) {
            try {
                if (run(python, "-c", "import pydicom, dicomanonymizer; print('ok')").startsWith("ok")) {
                    return python;
                }
            } catch (java.io.IOException e) {
                // not there: the next one
            }
        }
        return null;
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not end within a minute");
        }
        return output;
    }
}
