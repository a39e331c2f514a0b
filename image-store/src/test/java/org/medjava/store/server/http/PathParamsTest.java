package org.medjava.store.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PathParamsTest {

    @Test
    void pathsAreDecodedAsJaxRsDecodesPathParameters() {
        assertThat(PathParams.decode("samples/dicom/CT_small.dcm")).isEqualTo("samples/dicom/CT_small.dcm");
        assertThat(PathParams.decode("a%20b+c%3Bd.png")).isEqualTo("a b+c;d.png");
        assertThat(PathParams.decode("%C3%A9t%C3%A9.gif")).isEqualTo("été.gif");
        assertThat(PathParams.decode("bad%2")).isNull();
        assertThat(PathParams.decode("bad%zz")).isNull();
        assertThat(PathParams.decode("%C3%28")).isNull(); // not UTF-8
    }
}
