package org.medjava.store.net.dicomweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Accept and Content-Type headers as real DICOMweb clients write them. The client headers are copied from the
 * clients' sources: OHIF's image loader (cornerstone's {@code wadors/loadImage}), dicomweb-client (JS, used by OHIF
 * for QIDO, metadata and retrieves), Orthanc's DICOMweb plugin as a client (retrieve and STOW), dcm4che's
 * {@code wadors} tool; and what browsers and Java's URL connection send by default.
 */
class AcceptHeaderTest {

    /** OHIF 3 frames: the {@code type} value unquoted, with its {@code /} (what Jersey's parser refused). */
    static final String OHIF_FRAMES = "multipart/related; type=application/octet-stream; transfer-syntax=*";
    /** dicomweb-client with several media types, joined by {@code ", "}, values quoted. */
    static final String DICOMWEB_CLIENT_FRAMES = "multipart/related; type=\"image/jpeg\"; "
            + "transfer-syntax=1.2.840.10008.1.2.4.50, multipart/related; type=\"application/octet-stream\"; "
            + "transfer-syntax=1.2.840.10008.1.2.1";
    /** Orthanc's DICOMweb plugin retrieving from a remote server (HasWadoRsUniversalTransferSyntax). */
    static final String ORTHANC_RETRIEVE = "multipart/related; type=\"application/dicom\"; transfer-syntax=*";
    /** dcm4che's wadors tool (the form Weasis's dcm4che-based tools use too): no spaces, nothing quoted. */
    static final String DCM4CHE_WADORS = "multipart/related;type=application/dicom;transfer-syntax=*";
    static final String JAVA_DEFAULT = "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2";
    static final String BROWSER_IMAGE = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

    @Test
    void readsOhifsUnquotedTypeWithItsSlash() {
        MediaRange r = AcceptHeader.parse(OHIF_FRAMES).ranges().get(0);
        assertThat(r.type()).isEqualTo("multipart/related");
        assertThat(r.param("type")).isEqualTo("application/octet-stream");
        assertThat(r.param("transfer-syntax")).isEqualTo("*");
        assertThat(r.quality()).isEqualTo(1.0);
        assertThat(r.toHeader()).isEqualTo("multipart/related; type=\"application/octet-stream\"; transfer-syntax=*");
    }

    @Test
    void quotedAndUnquotedValuesAreTheSame() {
        assertThat(MediaRange.parse(ORTHANC_RETRIEVE)).isEqualTo(MediaRange.parse(DCM4CHE_WADORS));
        assertThat(MediaRange.parse("Multipart/Related; TYPE=\"Application/DICOM\"").param("type"))
                .isEqualTo("application/dicom");
    }

    @Test
    void splitsAlternativesAtCommasOutsideQuotes() {
        List<MediaRange> ranges = AcceptHeader.parse(DICOMWEB_CLIENT_FRAMES).ranges();
        assertThat(ranges).extracting(r -> r.param("type")).containsExactly("image/jpeg", "application/octet-stream");
        assertThat(ranges).extracting(r -> r.param("transfer-syntax"))
                .containsExactly("1.2.840.10008.1.2.4.50", "1.2.840.10008.1.2.1");

        MediaRange quoted = MediaRange.parse("multipart/related; boundary=\"a;b,c\\\"d\"; type=application/dicom");
        assertThat(quoted.param("boundary")).isEqualTo("a;b,c\"d");
        assertThat(AcceptHeader.parse("text/plain; x=\"1,2\", image/png").ranges()).hasSize(2);
    }

    @Test
    void weightsAreReadAndKeptOutOfTheParameters() {
        List<MediaRange> ranges = AcceptHeader.parse("multipart/related; type=\"application/dicom\"; "
                + "transfer-syntax=1.2.840.10008.1.2.1;q=0.5, multipart/related; type=application/dicom; "
                + "transfer-syntax=* ; q=0.9").ranges();
        assertThat(ranges).extracting(MediaRange::quality).containsExactly(0.5, 0.9);
        assertThat(ranges.get(0).params()).doesNotContainKey("q");
        assertThat(MediaRange.parse("image/png;q=2").quality()).isEqualTo(1.0); // out of range: ignored
        assertThat(MediaRange.parse("image/png;q=x").quality()).isEqualTo(1.0);
        assertThat(ranges.get(0).toHeader()).endsWith(";q=0.5");
    }

    @Test
    void javasLoneStarIsAnyTypeAndBrowsersListsAreRead() {
        List<MediaRange> java = AcceptHeader.parse(JAVA_DEFAULT).ranges();
        assertThat(java).extracting(MediaRange::type)
                .containsExactly("text/html", "image/gif", "image/jpeg", "*/*", "*/*");
        assertThat(java.get(3).quality()).isEqualTo(0.2);
        assertThat(AcceptHeader.parse(BROWSER_IMAGE).ranges()).hasSize(6);
    }

    @Test
    void noHeaderIsAnythingAndUnreadableRangesAreIgnored() {
        assertThat(AcceptHeader.parse(null).ranges()).singleElement().matches(MediaRange::isWildcard);
        assertThat(AcceptHeader.parse("  ").ranges()).singleElement().matches(MediaRange::isWildcard);
        assertThat(AcceptHeader.parse("nonsense, image/png,,").ranges()).extracting(MediaRange::type)
                .containsExactly("image/png");
        assertThatThrownBy(() -> AcceptHeader.parse("nonsense; q=1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nonsense");
        assertThat(MediaRange.parse("image/png;;  ; =x; flag").params()).isEmpty();
    }

    @Test
    void wildcardsCoverTheirTypes() {
        assertThat(MediaRange.parse("image/*").matches("image/png")).isTrue();
        assertThat(MediaRange.parse("image/*").matches("application/dicom")).isFalse();
        assertThat(MediaRange.parse("*/*").matches("application/dicom")).isTrue();
    }
}
