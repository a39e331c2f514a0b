package org.medjava.store.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the filter does to Accept and Content-Type headers before Jersey reads them. */
class MediaTypeHeaderFilterTest {

    private static final String OHIF = "multipart/related; type=application/octet-stream; transfer-syntax=*";

    @Test
    void dicomWebRequestsCarryTheParsedHeaderAndShowJerseyAnyType() {
        MediaTypeHeaderFilter.Outcome o = MediaTypeHeaderFilter.outcome("/dicomweb/studies/1/series/2/instances/3"
                + "/frames/1", OHIF, null);
        assertThat(o.refusal()).isNull();
        assertThat(o.headers()).containsEntry("accept", "*/*");
        assertThat(o.accept().ranges().get(0).param("type")).isEqualTo("application/octet-stream");
        assertThat(MediaTypeHeaderFilter.outcome("/dicomweb", null, null).accept().ranges()).hasSize(1);
    }

    @Test
    void theAcceptQueryParameterIsReadAndImageJhcIsHtj2ksImageJphc() {
        assertThat(MediaTypeHeaderFilter.acceptParameter("accept=image%2Fjhc&x=1")).isEqualTo("image/jhc");
        assertThat(MediaTypeHeaderFilter.acceptParameter("x=1&ACCEPT=image/jls")).isEqualTo("image/jls");
        assertThat(MediaTypeHeaderFilter.acceptParameter("accepted=1&accept=")).isNull();
        assertThat(MediaTypeHeaderFilter.acceptParameter(null)).isNull();
        MediaTypeHeaderFilter.Outcome o = MediaTypeHeaderFilter.outcome("/dicomweb/studies/1/series/2/instances/3"
                + "/frames/1", "image/jhc, multipart/related; type=\"image/jhc\"", null);
        assertThat(o.accept().ranges().get(0).type()).isEqualTo("image/jphc");
        assertThat(o.accept().ranges().get(1).param("type")).isEqualTo("image/jphc");
    }

    @Test
    void unreadableHeadersUnderDicomWebAreShortRefusals() {
        MediaTypeHeaderFilter.Outcome accept = MediaTypeHeaderFilter.outcome("/dicomweb/studies", "garbage", null);
        assertThat(accept.status()).isEqualTo(400);
        assertThat(accept.refusal()).contains("garbage");
        MediaTypeHeaderFilter.Outcome type = MediaTypeHeaderFilter.outcome("/dicomweb/studies", null, "nonsense");
        assertThat(type.status()).isEqualTo(415);
        assertThat(type.refusal()).startsWith("Content-Type:");
    }

    @Test
    void stowContentTypesAreQuotedForJersey() {
        MediaTypeHeaderFilter.Outcome o = MediaTypeHeaderFilter.outcome("/dicomweb/studies", null,
                "multipart/related; type=application/dicom; boundary=xyz");
        assertThat(o.headers()).containsEntry("content-type",
                "multipart/related; type=\"application/dicom\"; boundary=xyz");
    }

    @Test
    void elsewhereHeadersAreRewrittenOnlyWhenTheyChange() {
        assertThat(MediaTypeHeaderFilter.outcome("/images/", "application/json", "image/png").headers()).isEmpty();
        assertThat(MediaTypeHeaderFilter.outcome("/images/", "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2",
                null).headers()).containsEntry("accept", "text/html, image/gif, image/jpeg, */*;q=0.2, */*;q=0.2");
        assertThat(MediaTypeHeaderFilter.outcome("/images/", "garbage", "garbage").headers())
                .containsEntry("accept", "*/*").doesNotContainKey("content-type");
        assertThat(MediaTypeHeaderFilter.outcome("/dicomwebx/", "garbage", null).refusal()).isNull();
    }
}
