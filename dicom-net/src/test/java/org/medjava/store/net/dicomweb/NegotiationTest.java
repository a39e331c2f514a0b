package org.medjava.store.net.dicomweb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.StoreException;

/** Which form of a resource each client's Accept header gets (PS3.18 8.7.3, 8.7.7, 10.4.4). */
class NegotiationTest {

    private static final String ELE = "1.2.840.10008.1.2.1";
    private static final String JPEG = "1.2.840.10008.1.2.4.50";
    private static final String JLS = "1.2.840.10008.1.2.4.80";
    private static final String OCTET = "application/octet-stream";

    /** One frame of a JPEG baseline image: as stored (image/jpeg or octet-stream) or decoded; multipart or not. */
    private static final List<Representation> JPEG_FRAME = both(List.of(
            Representation.multipart("image/jpeg", JPEG, true, null),
            Representation.multipart(OCTET, JPEG, true, null),
            Representation.multipart(OCTET, ELE, false, null)));
    /** One frame of a JPEG-LS image the store cannot decode (as before CharLS, or when libcharls2 is missing). */
    private static final List<Representation> JLS_FRAME = both(List.of(
            Representation.multipart("image/jls", JLS, true, null),
            Representation.multipart(OCTET, JLS, true, null),
            Representation.multipart(OCTET, ELE, false, "JPEG-LS cannot be decompressed here")));
    private static final List<Representation> RAW_FRAMES = List.of(Representation.multipart(OCTET, ELE, true, null));
    private static final List<Representation> RENDERED = List.of(Representation.single("image/jpeg"),
            Representation.single("image/png"), Representation.single("image/gif"));

    private static List<Representation> both(List<Representation> multipart) {
        return java.util.stream.Stream.concat(multipart.stream(), multipart.stream().map(r -> r.asMultipart(false)))
                .toList();
    }

    private static Representation choose(String accept, List<Representation> forms) {
        return Negotiation.choose(AcceptHeader.parse(accept), forms, "frame 1");
    }

    @Test
    void ohifGetsTheStoredBitstreamInOctetStreamParts() {
        Representation r = choose(AcceptHeaderTest.OHIF_FRAMES, JPEG_FRAME);
        assertThat(r.multipart()).isTrue();
        assertThat(r.mediaType()).isEqualTo(OCTET);
        assertThat(r.asStored()).isTrue();
        assertThat(r.partContentType()).isEqualTo(OCTET + "; transfer-syntax=" + JPEG);
        assertThat(choose(AcceptHeaderTest.OHIF_FRAMES, RAW_FRAMES).partContentType())
                .isEqualTo(OCTET + "; transfer-syntax=" + ELE);
        assertThat(choose(AcceptHeaderTest.OHIF_FRAMES, JLS_FRAME).transferSyntax()).isEqualTo(JLS);
    }

    @Test
    void octetStreamWithoutTransferSyntaxMeansUncompressed() {
        Representation r = choose("multipart/related; type=\"application/octet-stream\"", JPEG_FRAME);
        assertThat(r.transferSyntax()).isEqualTo(ELE);
        assertThat(r.asStored()).isFalse();
        assertThatThrownBy(() -> choose("multipart/related; type=application/octet-stream", JLS_FRAME))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("JPEG-LS cannot be decompressed here")
                .hasMessageContaining("multipart/related; type=\"image/jls\"; transfer-syntax=" + JLS)
                .satisfies(e -> assertThat(((StoreException) e).kind()).isEqualTo(StoreException.Kind.NOT_ACCEPTABLE));
    }

    @Test
    void dicomwebClientsListIsTakenInTheStoresOrderAtEqualWeight() {
        assertThat(choose(AcceptHeaderTest.DICOMWEB_CLIENT_FRAMES, JPEG_FRAME).mediaType()).isEqualTo("image/jpeg");
        assertThat(choose(AcceptHeaderTest.DICOMWEB_CLIENT_FRAMES, RAW_FRAMES).transferSyntax()).isEqualTo(ELE);
    }

    @Test
    void weightsDecideAndTheMostSpecificRangeSetsAFormsWeight() {
        String preferDecoded = "multipart/related; type=application/octet-stream; transfer-syntax=*;q=0.5, "
                + "multipart/related; type=application/octet-stream; transfer-syntax=" + ELE;
        assertThat(choose(preferDecoded, JPEG_FRAME).transferSyntax()).isEqualTo(ELE);
        // a JPEG asked with weight 0 is refused even though */* would cover it
        assertThat(choose("image/jpeg;q=0, */*;q=0.1", RENDERED).mediaType()).isEqualTo("image/png");
        assertThatThrownBy(() -> choose("multipart/related; type=image/jpeg;q=0", JPEG_FRAME.subList(0, 1)))
                .isInstanceOf(StoreException.class);
    }

    @Test
    void singlePartOnlyWhereOffered() {
        Representation single = choose("image/jpeg", JPEG_FRAME);
        assertThat(single.multipart()).isFalse();
        assertThat(single.partContentType()).isEqualTo("image/jpeg; transfer-syntax=" + JPEG);
        assertThatThrownBy(() -> choose("image/jpeg", JPEG_FRAME.subList(0, 3))) // several frames: multipart only
                .isInstanceOf(StoreException.class).hasMessageContaining("cannot be sent as Accept: image/jpeg");
        assertThat(choose("application/octet-stream", RAW_FRAMES.stream()
                .flatMap(r -> java.util.stream.Stream.of(r, r.asMultipart(false))).toList()).multipart()).isFalse();
    }

    @Test
    void wildcardsAndNoHeaderGetTheStoredForm() {
        for (String accept : new String[] {null, "*/*", "multipart/related", "multipart/*",
                "multipart/related; type=image/*", "multipart/related; type=\"image/x-jls\"; transfer-syntax=*"}) {
            Representation r = choose(accept, accept != null && accept.contains("jls") ? JLS_FRAME : JPEG_FRAME);
            assertThat(r.asStored()).as(accept).isTrue();
            assertThat(r.multipart()).as(accept).isTrue();
        }
    }

    @Test
    void renderedImagesByAccept() {
        assertThat(choose(AcceptHeaderTest.BROWSER_IMAGE, RENDERED).mediaType()).isEqualTo("image/jpeg");
        assertThat(choose(AcceptHeaderTest.JAVA_DEFAULT, RENDERED).mediaType()).isEqualTo("image/jpeg");
        assertThat(choose("image/gif", RENDERED).mediaType()).isEqualTo("image/gif");
        assertThat(choose("image/png, image/jpeg;q=0.8", RENDERED).mediaType()).isEqualTo("image/png");
        assertThat(choose("image/jpeg; transfer-syntax=*", RENDERED).mediaType()).isEqualTo("image/jpeg");
        assertThatThrownBy(() -> choose("image/webp", RENDERED)).hasMessageContaining("image/png");
    }

    @Test
    void dicomJsonOrJson() {
        assertThat(Negotiation.json(AcceptHeader.parse("application/dicom+json"), "x"))
                .isEqualTo("application/dicom+json");
        assertThat(Negotiation.json(AcceptHeader.parse("application/json"), "x")).isEqualTo("application/json");
        assertThat(Negotiation.json(AcceptHeader.parse(null), "x")).isEqualTo("application/dicom+json");
        assertThat(Negotiation.json(AcceptHeader.parse("application/json, application/dicom+json"), "x"))
                .isEqualTo("application/dicom+json");
        assertThatThrownBy(() -> Negotiation.json(AcceptHeader.parse(AcceptHeaderTest.ORTHANC_RETRIEVE), "the studies"))
                .hasMessageContaining("the studies cannot be sent").hasMessageContaining("application/dicom+json");
    }

    @Test
    void dicomInstancesAsStoredOrConverted() {
        List<Representation> instance = both(List.of(
                Representation.multipart("application/dicom", JPEG, true, null),
                Representation.multipart("application/dicom", ELE, false, null),
                Representation.multipart("application/dicom", "1.2.840.10008.1.2", false, null)));
        assertThat(choose(AcceptHeaderTest.ORTHANC_RETRIEVE, instance).asStored()).isTrue();
        assertThat(choose(AcceptHeaderTest.DCM4CHE_WADORS, instance).asStored()).isTrue();
        assertThat(choose("multipart/related; type=\"application/dicom\"", instance).asStored()).isTrue();
        assertThat(choose("multipart/related; type=application/dicom; transfer-syntax=" + ELE, instance)
                .transferSyntax()).isEqualTo(ELE);
        Representation single = choose("application/dicom; transfer-syntax=*", instance);
        assertThat(single.multipart()).isFalse();
        assertThat(single.asStored()).isTrue();
        assertThatThrownBy(() -> choose("multipart/related; type=application/dicom; transfer-syntax=1.2.3", instance))
                .hasMessageContaining("(as stored, also transfer-syntax=*)");
    }
}
