package org.medjava.bench;

import com.github.jaiimageio.jpeg2000.J2KImageWriteParam;
import java.awt.image.BufferedImage;
import java.awt.image.DataBufferUShort;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageReader;
import javax.imageio.ImageWriter;
import javax.imageio.stream.ImageInputStream;
import javax.imageio.stream.ImageOutputStream;
import org.medjava.bench.setup.GrayFormat;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.setup.TestImages;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.dicom.Jpeg2000;
import org.medjava.filter.GrayRaster16;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Issue 34's codec target: lossless encode and decode of one 16-bit CT frame (the {@link TestImages#ct} phantom,
 * HU + 1024 unsigned, 512² by default) as the store does them, one thread:
 * <ul>
 *   <li>{@code htj2k-openjph}: HTJ2K through image-codec's OpenJPH bridge (reversible 5-3, RPCL), both ways;</li>
 *   <li>{@code j2k-openjpeg}: JPEG 2000 through image-codec's OpenJPEG bridge, both ways (the store's JPEG 2000
 *       path since issue 34);</li>
 *   <li>{@code j2k-jj2000}: JPEG 2000 through jai-imageio's JJ2000, both ways, configured as the store's encoder
 *       was (codestream only, reversible 5-3, no component transform): the store's JPEG 2000 path when issue 34 was
 *       filed, and its fallback where OpenJPEG does not load.</li>
 * </ul>
 * {@link #main} prints each codec's compressed size and checks that every sample comes back; the times are JMH's
 * ({@code ./medjava bench jmh CodecBenchmark}).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class CodecBenchmark {

    /** The codecs compared, by the names the {@code codec} parameter takes. */
    public enum Codec {
        HTJ2K_OPENJPH, J2K_OPENJPEG, J2K_JJ2000;

        public String id() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        public static Codec of(String id) {
            return valueOf(id.toUpperCase(Locale.ROOT).replace('-', '_'));
        }

        /** One 16-bit grey frame ({@code samples} little endian) as a codestream. */
        public byte[] encode(byte[] samples, int width, int height) throws ImageDecodeException, IOException {
            return switch (this) {
                case HTJ2K_OPENJPH -> Jpeg2000.encodeHtj2k(samples, width, height, 16, 1, false);
                case J2K_OPENJPEG -> Jpeg2000.encode(samples, width, height, 16, 1, false, true, 0);
                case J2K_JJ2000 -> jj2000Encode(samples, width, height);
            };
        }

        /** The codestream's samples, little endian. */
        public byte[] decode(byte[] codestream, int width, int height) throws ImageDecodeException, IOException {
            return switch (this) {
                case HTJ2K_OPENJPH -> Jpeg2000.decodeFrame(Jpeg2000.HTJ2K_RPCL_LOSSLESS, codestream, width, height,
                        1).samples();
                case J2K_OPENJPEG -> Jpeg2000.decodeFrame(Jpeg2000.LOSSLESS, codestream, width, height, 1).samples();
                case J2K_JJ2000 -> jj2000Decode(codestream);
            };
        }
    }

    @Param({"htj2k-openjph", "j2k-openjpeg", "j2k-jj2000"})
    public String codec;

    /** {@code N} for N×N or {@code WxH}. */
    @Param({"512"})
    public String size;

    private Codec chosen;
    private int width;
    private int height;
    private byte[] samples;
    private byte[] coded;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        chosen = Codec.of(codec);
        ImageSize s = ImageSize.parse(size);
        width = s.width();
        height = s.height();
        samples = ctFrame(s);
        coded = chosen.encode(samples, width, height);
        if (!Arrays.equals(chosen.decode(coded, width, height), samples)) {
            throw new IllegalStateException(codec + " changed samples: not lossless");
        }
    }

    @Benchmark
    public byte[] encodeAndDecode() throws Exception {
        return chosen.decode(chosen.encode(samples, width, height), width, height);
    }

    @Benchmark
    public byte[] encode() throws Exception {
        return chosen.encode(samples, width, height);
    }

    @Benchmark
    public byte[] decode() throws Exception {
        return chosen.decode(coded, width, height);
    }

    /** The phantom as little-endian 16-bit samples, HU + 1024. */
    public static byte[] ctFrame(ImageSize size) {
        GrayRaster16 ct = TestImages.ct(size, GrayFormat.U16);
        short[] words = ct.words();
        byte[] out = new byte[2 * words.length];
        for (int i = 0; i < words.length; i++) {
            out[2 * i] = (byte) words[i];
            out[2 * i + 1] = (byte) (words[i] >> 8);
        }
        return out;
    }

    private static byte[] jj2000Encode(byte[] samples, int width, int height) throws IOException {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_USHORT_GRAY);
        short[] data = ((DataBufferUShort) image.getRaster().getDataBuffer()).getData();
        for (int i = 0; i < data.length; i++) {
            data[i] = (short) (samples[2 * i] & 0xFF | samples[2 * i + 1] << 8);
        }
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg2000").next();
        J2KImageWriteParam param = new J2KImageWriteParam();
        param.setWriteCodeStreamOnly(true);
        param.setComponentTransformation(false);
        param.setLossless(true);
        param.setFilter(J2KImageWriteParam.FILTER_53);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (ImageOutputStream ios = ImageIO.createImageOutputStream(out)) {
            writer.setOutput(ios);
            writer.write(null, new IIOImage(image, null, null), param);
        } finally {
            writer.dispose();
        }
        return out.toByteArray();
    }

    private static byte[] jj2000Decode(byte[] codestream) throws IOException {
        Iterator<ImageReader> readers = ImageIO.getImageReadersByFormatName("jpeg2000");
        ImageReader reader = readers.next();
        try (ImageInputStream in = ImageIO.createImageInputStream(new ByteArrayInputStream(codestream))) {
            reader.setInput(in);
            BufferedImage image = reader.read(0);
            int[] values = image.getRaster().getSamples(0, 0, image.getWidth(), image.getHeight(), 0, (int[]) null);
            byte[] out = new byte[2 * values.length];
            for (int i = 0; i < values.length; i++) {
                out[2 * i] = (byte) values[i];
                out[2 * i + 1] = (byte) (values[i] >> 8);
            }
            return out;
        } finally {
            reader.dispose();
        }
    }

    /** Each codec's compressed size of the frame at each size given ({@code 512} by default), checked lossless. */
    public static void main(String[] args) throws Exception {
        for (String s : args.length > 0 ? args : new String[] {"512"}) {
            ImageSize size = ImageSize.parse(s);
            byte[] samples = ctFrame(size);
            System.out.printf(Locale.ROOT, "%s: %d bytes uncompressed%n", s, samples.length);
            for (Codec c : Codec.values()) {
                byte[] coded = c.encode(samples, size.width(), size.height());
                boolean exact = Arrays.equals(c.decode(coded, size.width(), size.height()), samples);
                System.out.printf(Locale.ROOT, "  %-14s %8d bytes  %.2f:1  %s%n", c.id(), coded.length,
                        (double) samples.length / coded.length, exact ? "lossless" : "CHANGED SAMPLES");
            }
        }
    }
}
