package org.medjava.store.core.model;

import org.medjava.store.core.StoreException;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Instant;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** {@link Preconditions}: If-Match / If-None-Match against the file a write would replace. */
class PreconditionsTest {

    private static final StorePath PATH = StorePath.parse("p/ct.dcm");
    private static final String ETAG = "\"1f4-abc-9\"";
    private static final StoredFile CURRENT = new StoredFile(PATH, false, 500,
            Instant.EPOCH, ETAG, "application/dicom");

    @Test
    void noHeadersAlwaysPass() {
        assertThatCode(() -> Preconditions.NONE.check(PATH, CURRENT)).doesNotThrowAnyException();
        assertThatCode(() -> Preconditions.NONE.check(PATH, null)).doesNotThrowAnyException();
        assertThatCode(() -> new Preconditions("  ", " ").check(PATH, CURRENT)).doesNotThrowAnyException();
    }

    @Test
    void ifMatchWithTheCurrentTagPasses() {
        assertThatCode(() -> ifMatch(ETAG).check(PATH, CURRENT)).doesNotThrowAnyException();
    }

    @Test
    void ifMatchListPassesWhenAnyTagMatches() {
        assertThatCode(() -> ifMatch("\"old\", " + ETAG + " ,\"other\"").check(PATH, CURRENT))
                .doesNotThrowAnyException();
    }

    @Test
    void ifMatchStarPassesForAnExistingFile() {
        assertThatCode(() -> ifMatch("*").check(PATH, CURRENT)).doesNotThrowAnyException();
    }

    @Test
    void ifMatchWithAnotherTagFailsAndNamesTheCurrentTag() {
        assertFailed(() -> ifMatch("\"old\", \"older\"").check(PATH, CURRENT))
                .hasMessageContaining("If-Match")
                .hasMessageContaining("p/ct.dcm has changed")
                .hasMessageContaining(ETAG);
    }

    @Test
    void ifMatchComparesStrongly() {
        // a weak tag never matches a strong one, nor does the tag without its quotes
        assertFailed(() -> ifMatch("W/" + ETAG).check(PATH, CURRENT));
        assertFailed(() -> ifMatch("1f4-abc-9").check(PATH, CURRENT));
    }

    @Test
    void ifMatchOnAMissingFileFails() {
        assertFailed(() -> ifMatch("*").check(PATH, null)).hasMessageContaining("p/ct.dcm does not exist");
        assertFailed(() -> ifMatch(ETAG).check(PATH, null)).hasMessageContaining("does not exist");
    }

    @Test
    void ifNoneMatchStarCreatesOnly() {
        assertThatCode(() -> ifNoneMatch("*").check(PATH, null)).doesNotThrowAnyException();
        assertFailed(() -> ifNoneMatch("*").check(PATH, CURRENT))
                .hasMessageContaining("If-None-Match")
                .hasMessageContaining("p/ct.dcm already exists");
        assertFailed(() -> ifNoneMatch(" * ").check(PATH, CURRENT));
    }

    @Test
    void ifNoneMatchTagListFailsOnlyWhenTheCurrentTagIsListed() {
        assertFailed(() -> ifNoneMatch("\"a\", " + ETAG).check(PATH, CURRENT));
        assertThatCode(() -> ifNoneMatch("\"a\", \"b\"").check(PATH, CURRENT)).doesNotThrowAnyException();
        assertThatCode(() -> ifNoneMatch(ETAG).check(PATH, null)).doesNotThrowAnyException();
    }

    @Test
    void bothHeadersAreChecked() {
        assertFailed(() -> new Preconditions(ETAG, ETAG).check(PATH, CURRENT)).hasMessageContaining("If-None-Match");
        assertThatCode(() -> new Preconditions(ETAG, "\"other\"").check(PATH, CURRENT)).doesNotThrowAnyException();
    }

    @Test
    void matchesSplitsOnCommasAndTrims() {
        assertThat(Preconditions.matches("*", ETAG)).isTrue();
        assertThat(Preconditions.matches(" " + ETAG + " ", ETAG)).isTrue();
        assertThat(Preconditions.matches("\"x\",\"y\"", ETAG)).isFalse();
        assertThat(Preconditions.matches("\"x\",*", ETAG)).isTrue();
    }

    private static Preconditions ifMatch(String header) {
        return new Preconditions(header, null);
    }

    private static Preconditions ifNoneMatch(String header) {
        return new Preconditions(null, header);
    }

    private static AbstractThrowableAssert<?, ? extends Throwable> assertFailed(
            org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
        return assertThatThrownBy(call).isInstanceOf(StoreException.class)
                .satisfies(e -> assertThat(((StoreException) e).kind())
                        .isEqualTo(StoreException.Kind.PRECONDITION_FAILED));
    }
}
