package org.medjava.store.net.dicomweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The streaming multipart reader against bodies written by hand and by {@link MultipartWriter}. */
class MultipartReaderTest {

    private static List<byte[]> read(byte[] body, String boundary) throws IOException {
        MultipartReader reader = new MultipartReader(new ByteArrayInputStream(body), boundary);
        List<byte[]> parts = new ArrayList<>();
        for (MultipartReader.Part p; (p = reader.next()) != null; ) {
            parts.add(p.body().readAllBytes());
        }
        return parts;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void readsPartsWithPreambleEpilogueAndHeaders() throws IOException {
        byte[] body = ascii("preamble to ignore\r\n--b1\r\nContent-Type: application/dicom\r\nX-Other: y\r\n\r\n"
                + "first\r\n--b1  \r\n\r\nsecond\r\nline\r\n--b1--\r\nepilogue");
        MultipartReader reader = new MultipartReader(new ByteArrayInputStream(body), "b1");
        MultipartReader.Part first = reader.next();
        assertThat(first.contentType()).isEqualTo("application/dicom");
        assertThat(first.headers()).containsEntry("x-other", "y");
        assertThat(new String(first.body().readAllBytes(), StandardCharsets.ISO_8859_1)).isEqualTo("first");
        MultipartReader.Part second = reader.next();
        assertThat(second.headers()).isEmpty();
        assertThat(new String(second.body().readAllBytes(), StandardCharsets.ISO_8859_1)).isEqualTo("second\r\nline");
        assertThat(reader.next()).isNull();
        assertThat(reader.next()).isNull();
    }

    @Test
    void largePartsAcrossBufferBoundariesAndDelimiterLookalikesSurvive() throws IOException {
        Random random = new Random(7);
        byte[] big = new byte[300_000];
        random.nextBytes(big);
        byte[] tricky = ascii("\r\n--boundar\r\nx--boundary without CRLF before it\r\n-"); // no delimiter in it
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        MultipartWriter w = new MultipartWriter(out, "boundary");
        w.part("application/dicom", null, big);
        w.part("application/dicom", "x", tricky);
        w.part("application/dicom", null, new byte[0]);
        w.finish();

        // delivered in small uneven pieces, as a network would
        InputStream trickle = new FilterInputStream(new ByteArrayInputStream(out.toByteArray())) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, 1 + random.nextInt(700)));
            }
        };
        MultipartReader reader = new MultipartReader(trickle, "boundary");
        List<byte[]> parts = new ArrayList<>();
        for (MultipartReader.Part p; (p = reader.next()) != null; ) {
            parts.add(p.body().readAllBytes());
        }
        assertThat(parts).hasSize(3);
        assertThat(parts.get(0)).isEqualTo(big);
        assertThat(parts.get(1)).isEqualTo(tricky);
        assertThat(parts.get(2)).isEmpty();
    }

    @Test
    void unreadPartsAreSkipped() throws IOException {
        byte[] body = ascii("--b\r\n\r\naaaa\r\n--b\r\n\r\nbbbb\r\n--b--");
        MultipartReader reader = new MultipartReader(new ByteArrayInputStream(body), "b");
        reader.next(); // not read
        assertThat(reader.next().body().readAllBytes()).isEqualTo(ascii("bbbb"));
        assertThat(reader.next()).isNull();
    }

    @Test
    void malformedBodiesAreErrorsThatSayWhy() {
        assertThatThrownBy(() -> read(ascii("--b\r\n\r\nno end"), "b")).hasMessageContaining("closing boundary");
        assertThatThrownBy(() -> read(ascii("--b\r\nContent-Type"), "b")).hasMessageContaining("headers");
        assertThatThrownBy(() -> read(ascii("--b\r\nbad header\r\n\r\nx\r\n--b--"), "b"))
                .hasMessageContaining("malformed part header");
        assertThatThrownBy(() -> read(ascii("--bjunk\r\n\r\nx\r\n--b--"), "b")).hasMessageContaining("junk");
        assertThatThrownBy(() -> new MultipartReader(new ByteArrayInputStream(new byte[0]), ""))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> read(ascii("no boundary at all"), "b")).isInstanceOf(IOException.class);
    }
}
