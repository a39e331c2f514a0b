package org.medjava.store.core.repo;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeFactory;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.OtherByteAttribute;
import com.pixelmed.dicom.OtherWordAttribute;
import com.pixelmed.dicom.TagFromName;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.store.testkit.Samples;

/**
 * {@link NativePixelCheck} never says "decodes" where image-codec's DicomCodec would not decode: checked on every
 * sample, and on copies of the uncompressed ones damaged in each way the check looks at.
 */
class NativePixelCheckTest {

    private static final long MAX_PIXELS = ImageCodec.DEFAULT_MAX_PIXELS;
    /** The uncompressed samples in the layouts the check judges: it must judge them, not defer to decoding. */
    private static final List<String> JUDGED = List.of("CT_small.dcm", "MR_small.dcm", "MR_small_bigendian.dcm",
            "MR_small_implicit.dcm", "image_dfl.dcm", "SC_rgb_small_odd.dcm",
            "examples_rgb_color.dcm", "ExplVR_BigEnd.dcm");

    private static AttributeList parse(byte[] file) throws Exception {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try (DicomInputStream in = new DicomInputStream(new ByteArrayInputStream(file))) {
            list.read(in);
        }
        return list;
    }

    private static String syntax(AttributeList list) {
        return Attribute.getSingleStringValueOrEmptyString(list, TagFromName.TransferSyntaxUID).trim();
    }

    private static boolean surelyDecodes(byte[] file) throws Exception {
        AttributeList list = parse(file);
        return NativePixelCheck.surelyDecodes(list, syntax(list), MAX_PIXELS);
    }

    /** Whether DicomCodec decodes the first frame without any complaint. */
    private static boolean decodes(byte[] file) {
        try {
            DicomCodec.read(file, 0, MAX_PIXELS);
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void agreesWithDicomCodecOnEverySampleAndJudgesTheCommonLayouts() throws Exception {
        List<String> judged = new ArrayList<>();
        try (Stream<Path> samples = Files.list(Samples.dicom("CT_small.dcm").getParent())) {
            for (Path sample : samples.filter(p -> p.toString().endsWith(".dcm")).sorted().toList()) {
                byte[] file = Files.readAllBytes(sample);
                boolean sure;
                try {
                    sure = surelyDecodes(file);
                } catch (Exception doesNotParse) {
                    continue; // refused before any pixel check
                }
                if (sure) {
                    assertThat(decodes(file)).as(sample.getFileName().toString()).isTrue();
                    judged.add(sample.getFileName().toString());
                }
            }
        }
        assertThat(judged).containsAll(JUDGED);
        assertThat(judged).doesNotContain("MR_small_RLE.dcm", "SC_rgb_jpeg_dcmtk.dcm", "examples_palette.dcm",
                "SC_ybr_full_422_uncompressed.dcm", "rtdose.dcm");
    }

    @Test
    void damagedCopiesAreNeverJudgedFine() throws Exception {
        for (String sample : JUDGED) {
            byte[] original = Files.readAllBytes(Samples.dicom(sample));
            for (Damage damage : damages()) {
                byte[] damaged = damage.apply(original);
                boolean sure = surelyDecodes(damaged);
                assertThat(sure).as(sample + " " + damage.name()).isFalse();
                assertThat(decodes(damaged) || !sure).isTrue();
            }
        }
    }

    private record Damage(String name, Consumer<AttributeList> change) {
        byte[] apply(byte[] file) throws Exception {
            AttributeList list = parse(file);
            change.accept(list);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            list.write(out, syntax(list), true, true);
            return out.toByteArray();
        }
    }

    private static List<Damage> damages() {
        return List.of(
                new Damage("pixel data one sample short", NativePixelCheckTest::shortenPixelData),
                new Damage("no pixel data", l -> l.remove(TagFromName.PixelData)),
                new Damage("no rows", l -> l.remove(TagFromName.Rows)),
                new Damage("zero columns", l -> set(l, TagFromName.Columns, "0")),
                new Damage("twice the rows", l -> set(l, TagFromName.Rows, Integer.toString(2
                        * Attribute.getSingleIntegerValueOrDefault(l, TagFromName.Rows, 1)))),
                new Damage("two frames' worth announced", l -> set(l, TagFromName.NumberOfFrames, "2")),
                new Damage("frames not a number", l -> set(l, TagFromName.NumberOfFrames, "many")),
                new Damage("zero frames", l -> set(l, TagFromName.NumberOfFrames, "0")),
                new Damage("bits stored over bits allocated", l -> set(l, TagFromName.BitsStored, "17")),
                new Damage("rescale slope not a number", l -> set(l, TagFromName.RescaleSlope, "steep")),
                new Damage("samples not matching the photometric interpretation", l -> set(l,
                        TagFromName.SamplesPerPixel, Attribute.getSingleIntegerValueOrDefault(l,
                                TagFromName.SamplesPerPixel, 1) == 1 ? "3" : "1")),
                new Damage("32 bits allocated", l -> set(l, TagFromName.BitsAllocated, "32")));
    }

    private static void set(AttributeList list, AttributeTag tag, String value) {
        try {
            Attribute a = AttributeFactory.newAttribute(tag);
            a.addValue(value);
            list.put(a);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void shortenPixelData(AttributeList list) {
        try {
            Attribute pixels = list.get(TagFromName.PixelData);
            if (pixels instanceof OtherWordAttribute words) {
                short[] values = words.getShortValues();
                OtherWordAttribute shorter = new OtherWordAttribute(TagFromName.PixelData);
                shorter.setValues(java.util.Arrays.copyOf(values, values.length - 1));
                list.put(shorter);
            } else {
                byte[] values = pixels.getByteValues();
                OtherByteAttribute shorter = new OtherByteAttribute(TagFromName.PixelData);
                shorter.setValues(java.util.Arrays.copyOf(values, values.length - 2));
                list.put(shorter);
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
