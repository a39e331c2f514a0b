package org.medjava.store.core.repo;

import org.medjava.store.core.StoreException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.medjava.codec.ImageCodec;
import org.medjava.codec.ImageFormat;
import org.medjava.store.core.StoreException.Kind;
import org.medjava.store.core.model.StorePath;

/** {@link UploadValidator}: which bodies the store keeps, and the 415/422 it answers for the rest. */
class UploadValidatorTest {

    @TempDir
    Path dir;

    private final UploadValidator validator = new UploadValidator(ImageCodec.DEFAULT_MAX_PIXELS);

    // ------------------------------------------------------------------ accepted

    @ParameterizedTest
    @ValueSource(strings = {"CT_small.dcm", "MR_small.dcm", "MR_small_implicit.dcm", "MR_small_bigendian.dcm",
            "MR_small_RLE.dcm", "JPEG-lossy.dcm", "examples_palette.dcm", "image_dfl.dcm"})
    void acceptsDicom(String sample) throws IOException {
        assertThat(validate("ct/" + sample, TestImages.dicom(sample), "application/dicom")).isEqualTo(ImageFormat.DICOM);
    }

    @Test
    void acceptsGif() throws IOException {
        assertThat(validate("a/color.gif", TestImages.gif("color.gif"), "image/gif")).isEqualTo(ImageFormat.GIF);
        assertThat(validate("a/ct.gif", TestImages.gif("ct-small.gif"), null)).isEqualTo(ImageFormat.GIF);
    }

    @Test
    void acceptsPngAndJpeg() throws IOException {
        assertThat(validate("x.png", TestImages.png(40, 30, 1), "image/png")).isEqualTo(ImageFormat.PNG);
        assertThat(validate("x.jpg", TestImages.jpeg(40, 30, 1), "image/jpeg")).isEqualTo(ImageFormat.JPEG);
        assertThat(validate("x.JPEG", TestImages.jpeg(40, 30, 1), "image/jpg")).isEqualTo(ImageFormat.JPEG);
    }

    @Test
    void jpegLsDicomIsAccepted() throws IOException {
        assertThat(validate("mr/ls.dcm", TestImages.dicom("MR_small_jpeg_ls_lossless.dcm"), "application/dicom"))
                .isEqualTo(ImageFormat.DICOM);
    }

    @Test
    void formatIsTakenFromTheContentWhenTheNameSaysNothing() throws IOException {
        assertThat(validate("scan", TestImages.png(8, 8, 0), null)).isEqualTo(ImageFormat.PNG);
        assertThat(validate("scan.bin", TestImages.dicom("CT_small.dcm"), null)).isEqualTo(ImageFormat.DICOM);
    }

    @ParameterizedTest
    @ValueSource(strings = {"application/octet-stream", "image/png", "IMAGE/PNG", "image/png; charset=binary",
            "application/octet-stream;q=1", " "})
    void acceptedDeclaredTypes(String type) throws IOException {
        assertThat(validate("x.png", TestImages.png(8, 8, 0), type)).isEqualTo(ImageFormat.PNG);
    }

    // ------------------------------------------------------------------ 415

    @Test
    void textIsUnsupported() {
        assertRefused("notes.png", "hello, this is not an image\n".getBytes(StandardCharsets.US_ASCII), "image/png",
                Kind.UNSUPPORTED_MEDIA_TYPE)
                .hasMessageContaining("not a recognised image")
                .hasMessageContaining("68 65 6c 6c 6f") // "hello"
                .hasMessageContaining("DICOM (Part 10), GIF, PNG and JPEG");
    }

    @Test
    void emptyBodyIsUnsupported() {
        assertRefused("x.png", new byte[0], null, Kind.UNSUPPORTED_MEDIA_TYPE)
                .hasMessageContaining("the body is empty");
    }

    @Test
    void ppmIsUnsupported() {
        byte[] ppm = "P6\n2 2\n255\n".getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[ppm.length + 12];
        System.arraycopy(ppm, 0, body, 0, ppm.length);
        assertRefused("x.ppm", body, "image/x-portable-pixmap", Kind.UNSUPPORTED_MEDIA_TYPE)
                .hasMessageContaining("PPM")
                .hasMessageContaining("does not keep");
    }

    @Test
    void contentTypeDisagreeingWithTheBodyIsUnsupported() {
        assertRefused("x", TestImages.png(8, 8, 0), "image/gif", Kind.UNSUPPORTED_MEDIA_TYPE)
                .hasMessageContaining("Content-Type is image/gif but the body is PNG (image/png)");
        assertRefused("x", TestImages.dicom("CT_small.dcm"), "image/jpeg", Kind.UNSUPPORTED_MEDIA_TYPE)
                .hasMessageContaining("the body is DICOM");
        assertRefused("x", TestImages.png(8, 8, 0), "text/plain; charset=utf-8", Kind.UNSUPPORTED_MEDIA_TYPE)
                .hasMessageContaining("Content-Type is text/plain");
    }

    @Test
    void fileNameExtensionDisagreeingWithTheBodyIsUnsupported() {
        assertRefused("a/b/scan.png", TestImages.gif("ct-small.gif"), null, Kind.UNSUPPORTED_MEDIA_TYPE)
                .hasMessageContaining("the name \"scan.png\" says PNG but the body is GIF");
        assertRefused("a/scan.dcm", TestImages.jpeg(8, 8, 0), "image/jpeg", Kind.UNSUPPORTED_MEDIA_TYPE)
                .hasMessageContaining("says DICOM but the body is JPEG");
        assertRefused("a/scan.ppm", TestImages.png(8, 8, 0), null, Kind.UNSUPPORTED_MEDIA_TYPE)
                .hasMessageContaining("says PPM");
    }

    @Test
    void dicomWithoutFileMetaInformationIsUnsupported() {
        assertRefused("x.dcm", TestImages.dicom("no_meta.dcm"), "application/dicom", Kind.UNSUPPORTED_MEDIA_TYPE)
                .hasMessageContaining("not a recognised image");
    }

    // ------------------------------------------------------------------ 422

    @Test
    void truncatedDicomIsUnprocessable() {
        assertRefused("mr.dcm", TestImages.dicom("MR_truncated.dcm"), "application/dicom", Kind.UNPROCESSABLE)
                .hasMessageContaining("the body is DICOM but does not decode")
                .hasMessageContaining("truncated");
    }

    @Test
    void dicomCutShortInsideItsTrailingPaddingIsUnprocessable() {
        byte[] whole = TestImages.dicom("CT_small.dcm"); // its last element is Data Set Trailing Padding
        assertRefused("ct.dcm", java.util.Arrays.copyOf(whole, whole.length - 50), "application/dicom",
                Kind.UNPROCESSABLE).hasMessageContaining("truncated");
    }

    @Test
    void pngAndJpegCutShortAfterTheirImageDataAreUnprocessable() throws IOException {
        byte[] png = TestImages.png(64, 64, 3);
        assertRefused("x.png", java.util.Arrays.copyOf(png, png.length - 6), "image/png", Kind.UNPROCESSABLE)
                .hasMessageContaining("IEND");
        java.io.ByteArrayOutputStream jpeg = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(new java.awt.image.BufferedImage(64, 48,
                java.awt.image.BufferedImage.TYPE_BYTE_GRAY), "jpeg", jpeg);
        byte[] whole = jpeg.toByteArray();
        assertThat(validate("x.jpg", whole, "image/jpeg")).isEqualTo(ImageFormat.JPEG);
        assertRefused("x.jpg", java.util.Arrays.copyOf(whole, whole.length * 8 / 9), "image/jpeg",
                Kind.UNPROCESSABLE).hasMessageContaining("end-of-image");
        byte[] padded = java.util.Arrays.copyOf(whole, whole.length + 16); // zero padding after the end: fine
        assertThat(validate("y.jpg", padded, "image/jpeg")).isEqualTo(ImageFormat.JPEG);
    }

    @Test
    void truncatedGifIsUnprocessable() {
        assertRefused("x.gif", TestImages.truncated(TestImages.gif("ct-small.gif")), null, Kind.UNPROCESSABLE)
                .hasMessageContaining("the body is GIF but does not decode");
    }

    @Test
    void truncatedPngIsUnprocessable() {
        assertRefused("x.png", TestImages.truncated(TestImages.png(64, 64, 3)), "image/png", Kind.UNPROCESSABLE)
                .hasMessageContaining("the body is PNG but does not decode");
    }

    @Test
    void decodeFailureMessageDoesNotLeakTheTempFilePath() {
        assertRefused("x.png", TestImages.truncated(TestImages.png(64, 64, 3)), null, Kind.UNPROCESSABLE)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(dir.toString()));
    }

    @Test
    void imagesOverThePixelLimitAreUnprocessable() {
        UploadValidator small = new UploadValidator(1000);

        assertThatThrownBy(() -> small.validate(StorePath.parse("x.png"), write(TestImages.png(64, 48, 0)), null))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.UNPROCESSABLE);
                    assertThat(e.getMessage()).contains("64x48").contains("1000 pixels");
                });
        assertThatThrownBy(() -> small.validate(StorePath.parse("x.gif"), write(TestImages.gif("ct-small.gif")), null))
                .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.kind()).isEqualTo(Kind.UNPROCESSABLE));
        assertThatThrownBy(() -> small.validate(StorePath.parse("x.dcm"), write(TestImages.dicom("CT_small.dcm")), null))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.UNPROCESSABLE);
                    assertThat(e.getMessage()).contains("128x128").contains("1000");
                });
    }

    @Test
    void compressedDicomIsHeldToThePixelLimit() {
        UploadValidator small = new UploadValidator(1000);

        assertThatThrownBy(() -> small.validate(StorePath.parse("ls.dcm"),
                write(TestImages.dicom("MR_small_jpeg_ls_lossless.dcm")), null))
                .isInstanceOfSatisfying(StoreException.class, e -> {
                    assertThat(e.kind()).isEqualTo(Kind.UNPROCESSABLE);
                    assertThat(e.getMessage()).contains("64x64").contains("1000");
                });
    }

    @Test
    void imageExactlyAtThePixelLimitIsAccepted() throws IOException {
        UploadValidator exact = new UploadValidator(64 * 48);

        assertThat(exact.validate(StorePath.parse("x.png"), write(TestImages.png(64, 48, 0)), null))
                .isEqualTo(ImageFormat.PNG);
    }

    // ------------------------------------------------------------------ helpers

    private ImageFormat validate(String path, byte[] body, String type) throws IOException {
        return validator.validate(StorePath.parse(path), write(body), type);
    }

    private AbstractThrowableAssert<?, ? extends Throwable> assertRefused(String path, byte[] body, String type,
                                                                          Kind kind) {
        return assertThatThrownBy(() -> validate(path, body, type))
                .isInstanceOf(StoreException.class)
                .satisfies(e -> assertThat(((StoreException) e).kind()).as(e.getMessage()).isEqualTo(kind));
    }

    private Path write(byte[] body) throws IOException {
        return Files.write(Files.createTempFile(dir, "body-", ".part"), body);
    }
}
