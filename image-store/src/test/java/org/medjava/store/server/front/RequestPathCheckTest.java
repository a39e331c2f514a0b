package org.medjava.store.server.front;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The addresses the container could not decode are found before it tries; every other address passes. */
class RequestPathCheckTest {

    @ParameterizedTest
    @ValueSource(strings = {"/images/bad%zz.png", "/images/%u0041", "/images/x%", "/images/%4", "/images/%4.png",
        "/%zz", "/dicomweb/studies/%g0", "/images/a%%20b"})
    void aMalformedEscapeIsNamed(String path) {
        assertThat(RequestPathCheck.problem(path)).contains("malformed percent escape", "%25");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/images/%ff.png", "/images/%c3%28.png", "/images/%e2%82"})
    void escapesThatAreNotUtf8AreNamed(String path) {
        assertThat(RequestPathCheck.problem(path)).contains("not UTF-8");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/images/a%2fb", "/images/a%2Fb", "/images/a%00b"})
    void anEncodedSlashOrNulIsNamed(String path) {
        assertThat(RequestPathCheck.problem(path)).contains("encoded");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/images/a.png", "/images/a%20b.png", "/images/M%C3%BCller/ct.dcm", "/", "",
        "/images/%25zz", "/images/a%3Bb", "/images/%E2%82%AC"})
    void wellFormedAddressesPass(String path) {
        assertThat(RequestPathCheck.problem(path)).isNull();
    }
}
