package org.medjava.store.core.model;

import org.medjava.store.core.StoreException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link StorePath#parse}: what it accepts, what it refuses (and says why), and that nothing leaves the root. */
class StorePathTest {

    private static final Path ROOT = Path.of("/srv/medjava/images").toAbsolutePath();

    @Nested
    class Accepted {

        @Test
        void nullAndEmptyAreTheRoot() {
            assertThat(StorePath.parse(null)).isEqualTo(StorePath.ROOT);
            assertThat(StorePath.parse("")).isEqualTo(StorePath.ROOT);
            assertThat(StorePath.ROOT.isRoot()).isTrue();
            assertThat(StorePath.ROOT.directory()).isTrue();
            assertThat(StorePath.ROOT.relative()).isEmpty();
            assertThat(StorePath.ROOT.name()).isEmpty();
        }

        @Test
        void nestedFile() {
            StorePath p = StorePath.parse("patients/p001/ct/slice-1.dcm");

            assertThat(p.segments()).containsExactly("patients", "p001", "ct", "slice-1.dcm");
            assertThat(p.directory()).isFalse();
            assertThat(p.isRoot()).isFalse();
            assertThat(p.name()).isEqualTo("slice-1.dcm");
            assertThat(p.relative()).isEqualTo("patients/p001/ct/slice-1.dcm");
            assertThat(p).hasToString("patients/p001/ct/slice-1.dcm");
        }

        @Test
        void trailingSlashMeansDirectory() {
            StorePath p = StorePath.parse("patients/p001/");

            assertThat(p.segments()).containsExactly("patients", "p001");
            assertThat(p.directory()).isTrue();
            assertThat(p.relative()).isEqualTo("patients/p001/");
            assertThat(StorePath.parse("patients/p001").directory()).isFalse();
            assertThat(StorePath.parse("patients/p001").asDirectory()).isEqualTo(p);
        }

        @ParameterizedTest
        @ValueSource(strings = {"Müller/Röntgen.png", "患者/画像.dcm", "Ελληνικά/εικόνα.gif", "emoji-\uD83E\uDE7B/x.jpg",
                "with space/and+plus=eq,comma;semi.png", "a.b.c/d..e", "x..", "a~/b@/c#"})
        void unicodeAndPunctuationNamesAreAccepted(String raw) {
            StorePath p = StorePath.parse(raw);

            assertThat(p.relative()).isEqualTo(raw);
            assertThat(String.join("/", p.segments())).isEqualTo(raw);
        }

        @Test
        void segmentOfExactly255BytesIsAccepted() {
            String ascii = "a".repeat(255);
            String twoByte = "é".repeat(127) + "a"; // 255 bytes in UTF-8

            assertThat(StorePath.parse(ascii).name()).isEqualTo(ascii);
            assertThat(StorePath.parse("d/" + twoByte).name()).isEqualTo(twoByte);
        }

        @Test
        void pathOfExactly1024CharactersIsAccepted() {
            String raw = longPath(1024);

            assertThat(StorePath.parse(raw).relative()).isEqualTo(raw);
        }
    }

    @Nested
    class Refused {

        @ParameterizedTest
        @CsvSource(delimiter = '|', value = {
                "..          | \"..\" is not allowed in a path",
                "a/../b      | \"..\" is not allowed in a path",
                "a/..        | \"..\" is not allowed in a path",
                "../         | \"..\" is not allowed in a path",
                ".           | \".\" is not allowed in a path",
                "a/./b       | \".\" is not allowed in a path",
                "./          | \".\" is not allowed in a path"})
        void dotAndDotDot(String raw, String message) {
            assertBad(raw, message);
        }

        @ParameterizedTest
        @ValueSource(strings = {"/x", "/", "//x", "/etc/passwd"})
        void absolutePaths(String raw) {
            assertBad(raw, "absolute paths are not allowed");
        }

        @Test
        void absoluteMessageQuotesThePath() {
            assertBad("/x", "absolute paths are not allowed: \"/x\"");
        }

        @ParameterizedTest
        @ValueSource(strings = {"a//b", "a/b//", "a//"})
        void emptySegments(String raw) {
            assertBad(raw, "empty name (//) in \"" + raw + "\"");
        }

        @ParameterizedTest
        @CsvSource({"0, U+0000", "1, U+0001", "10, U+000A", "13, U+000D", "9, U+0009", "31, U+001F", "127, U+007F"})
        void controlCharacters(int code, String named) {
            String raw = "ab" + (char) code + "c.png";

            assertBad(raw, "control character (" + named + ") at position 2");
        }

        @Test
        void backslash() {
            assertBad("a\\b.png", "backslash");
            assertBad("..\\..\\windows", "backslash");
        }

        @ParameterizedTest
        @ValueSource(strings = {".staging", ".staging/put-1.part", "a/.hidden", ".git/config", "a/...", ".x/"})
        void dotNamesAreReserved(String raw) {
            assertBad(raw, "names starting with \".\" are reserved");
        }

        @Test
        void reservedMessageNamesTheSegment() {
            assertBad("a/.staging/b.png", "reserved: \".staging\"");
        }

        @Test
        void segmentOver255Bytes() {
            assertBad("a".repeat(256), "a name is longer than 255 bytes");
            // 128 characters, but 256 bytes in UTF-8: the limit is on bytes (what file systems count)
            String twoByte = "é".repeat(128);
            assertThat(twoByte.getBytes(StandardCharsets.UTF_8)).hasSize(256);
            assertBad("dir/" + twoByte + "/x.png", "a name is longer than 255 bytes");
        }

        @Test
        void pathOver1024Characters() {
            assertBad(longPath(1025), "path is longer than 1024 characters");
        }

        private static void assertBad(String raw, String messagePart) {
            assertThatThrownBy(() -> StorePath.parse(raw))
                    .isInstanceOf(StorePath.BadPathException.class)
                    .hasMessageContaining(messagePart)
                    .satisfies(e -> assertThat(((StoreException) e).kind()).isEqualTo(StoreException.Kind.BAD_REQUEST));
        }
    }

    @Nested
    class Navigation {

        @Test
        void parentIsADirectoryAndStopsAtTheRoot() {
            StorePath p = StorePath.parse("a/b/c.png");

            assertThat(p.parent()).isEqualTo(StorePath.parse("a/b/"));
            assertThat(p.parent().parent()).isEqualTo(StorePath.parse("a/"));
            assertThat(p.parent().parent().parent()).isEqualTo(StorePath.ROOT);
            assertThat(StorePath.ROOT.parent()).isEqualTo(StorePath.ROOT);
        }

        @Test
        void childAppendsOneName() {
            StorePath dir = StorePath.parse("a/");

            assertThat(dir.child("b.png", false)).isEqualTo(StorePath.parse("a/b.png"));
            assertThat(dir.child("sub", true)).isEqualTo(StorePath.parse("a/sub/"));
            assertThat(StorePath.ROOT.child("x", false).relative()).isEqualTo("x");
        }

        @Test
        void resolveInFollowsTheSegments() {
            assertThat(StorePath.parse("a/b/c.png").resolveIn(ROOT)).isEqualTo(ROOT.resolve("a").resolve("b")
                    .resolve("c.png"));
            assertThat(StorePath.ROOT.resolveIn(ROOT)).isEqualTo(ROOT);
        }

        @Test
        void segmentsAreImmutable() {
            StorePath p = StorePath.parse("a/b");

            assertThatThrownBy(() -> p.segments().add("c")).isInstanceOf(UnsupportedOperationException.class);
        }
    }

    /**
     * Property: whatever {@code parse} accepts stays inside the root however it is navigated, and its
     * {@code relative()} form parses back to the same path.
     */
    @Test
    void acceptedPathsNeverEscapeTheRoot() {
        Random random = new Random(20240611L);
        String[] pieces = {"a", "b", "é", "图", " ", "~", ".", "..", "/", "//", "\\", "\u0000", "\u0001", "\n", "\u007f",
                ":", "*", "?", "%2e", "%2f", "-", "_", "\uD83E\uDE7B", "\u202e", "\u00a0", "\u0085"};
        int accepted = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = random.nextInt(12);
            for (int k = 0; k < n; k++) {
                sb.append(pieces[random.nextInt(pieces.length)]);
            }
            String raw = sb.toString();
            StorePath p;
            try {
                p = StorePath.parse(raw);
            } catch (StorePath.BadPathException e) {
                assertThat(e.getMessage()).as("refusal of %s", List.of(raw)).isNotBlank();
                continue;
            }
            accepted++;
            assertInside(p, raw);
            assertInside(p.parent(), raw);
            assertThat(StorePath.parse(p.relative())).as("round trip of %s", raw).isEqualTo(p);
            if (!p.isRoot()) {
                StorePath nested = p.asDirectory().child(p.name(), false);
                assertInside(nested, raw);
                assertThat(StorePath.parse(nested.relative())).isEqualTo(nested);
            }
        }
        assertThat(accepted).as("the generator must produce enough valid paths to mean something")
                .isGreaterThan(1000);
    }

    private static void assertInside(StorePath p, String raw) {
        Path resolved = p.resolveIn(ROOT).normalize();
        assertThat(resolved.startsWith(ROOT)).as("%s resolves to %s", raw, resolved).isTrue();
        assertThat(ROOT.relativize(resolved).toString().replace('\\', '/'))
                .as("resolved form of %s", raw).isEqualTo(String.join("/", p.segments()));
    }

    /** "aaaa/aaaa/..." of exactly {@code length} characters, segments well under 255 bytes. */
    private static String longPath(int length) {
        StringBuilder sb = new StringBuilder();
        while (sb.length() < length) {
            if (sb.length() > 0 && sb.length() % 100 == 99) {
                sb.append('/');
            } else {
                sb.append('a');
            }
        }
        return sb.toString();
    }
}
