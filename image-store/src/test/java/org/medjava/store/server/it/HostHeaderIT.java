package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.http.Multipart;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.RawHttp;
import org.medjava.store.testkit.store.StoreClient;

/**
 * A store without {@code medjava.public-url} (and without trusted forwarded headers) never builds a link from an
 * unchecked Host: a Host that does not name it is refused with 400 before anything is done, on WADO-RS, QIDO-RS,
 * STOW-RS and PUT alike; its own names and {@code medjava.http.allowed-hosts} give links under them.
 */
class HostHeaderIT {

    private static final String EVIL = "Host: evil.example:1234\r\n";
    private static final String STUDY = "1.3.6.1.4.1.5962.1.2.1.20040119072730.12322";
    private static final String SERIES = "1.3.6.1.4.1.5962.1.3.1.1.20040119072730.12322";
    private static final String SOP = "1.3.6.1.4.1.5962.1.1.1.1.1.20040119072730.12322";
    private static final byte[] CT = Samples.bytes(Samples.dicom("CT_small.dcm"));
    private static final byte[] MR = Samples.bytes(Samples.dicom("MR_small.dcm"));

    private static PayaraStore store;
    private static RawHttp http;

    @BeforeAll
    static void start() throws Exception {
        store = PayaraStore.named("hosts").property("medjava.public-url", "")
                .property("medjava.http.allowed-hosts", "pacs.example.test").start();
        http = RawHttp.to(store);
        assertThat(StoreClient.admin(store).put("/images/h/ct.dcm", CT).statusCode()).isEqualTo(201);
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    private static String auth() {
        return "Authorization: " + PayaraStore.admin() + "\r\n";
    }

    @Test
    void anUnknownHostIsRefusedOnEveryKindOfRequestAndNothingIsStored() throws Exception {
        String instance = "/dicomweb/studies/" + STUDY + "/series/" + SERIES + "/instances/" + SOP;
        for (String target : List.of("/dicomweb/studies", instance + "/metadata", "/images/h/ct.dcm",
                "/images/h")) {
            RawHttp.Response r = http.send("GET", target, EVIL + auth(), null);
            assertThat(r.status()).as(target).isEqualTo(400);
            assertThat(r.text()).as(target).contains("unknown host").doesNotContain("evil.example");
        }
        RawHttp.Response stow = http.send("POST", "/dicomweb/studies", EVIL + auth()
                + "Content-Type: multipart/related; type=\"application/dicom\"; boundary=H15\r\n",
                Multipart.dicom("H15", List.of(MR)));
        assertThat(stow.status()).isEqualTo(400);
        assertThat(stow.header("Location")).isNull();
        RawHttp.Response put = http.send("PUT", "/images/h/new.dcm", EVIL + auth(), MR);
        assertThat(put.status()).isEqualTo(400);
        assertThat(http.send("GET", "/images/h/new.dcm", auth(), null).status()).isEqualTo(404);
        assertThat(http.send("GET", "/dicomweb/studies?StudyInstanceUID=1.3.6.1.4.1.5962.1.2.4.20040826185059.5457",
                auth(), null).text()).as("the MR was not stored by STOW").isEqualTo("[]");
    }

    @Test
    void itsOwnNamesAndTheAllowedHostsGiveLinksUnderThem() throws Exception {
        for (String host : List.of("localhost:" + store.port(), "127.0.0.1:" + store.port(),
                "pacs.example.test:8443")) {
            String base = "http://" + host + "/";
            RawHttp.Response qido = http.send("GET", "/dicomweb/studies", "Host: " + host + "\r\n" + auth(), null);
            assertThat(qido.status()).isEqualTo(200);
            assertThat(qido.text()).contains("\"" + base + "dicomweb/studies/" + STUDY);
            RawHttp.Response metadata = http.send("GET", "/dicomweb/studies/" + STUDY + "/series/" + SERIES
                    + "/instances/" + SOP + "/metadata", "Host: " + host + "\r\n" + auth(), null);
            assertThat(metadata.status()).isEqualTo(200);
            assertThat(metadata.text()).contains("\"BulkDataURI\":\"" + base + "dicomweb/studies/");
            RawHttp.Response dir = http.send("GET", "/images/h", "Host: " + host + "\r\n" + auth(), null);
            assertThat(dir.status()).isEqualTo(301);
            assertThat(dir.header("Location")).isEqualTo(base + "images/h/");
        }
        RawHttp.Response stow = http.send("POST", "/dicomweb/studies", "Host: pacs.example.test\r\n" + auth()
                + "Accept: application/dicom+json\r\n"
                + "Content-Type: multipart/related; type=\"application/dicom\"; boundary=H15\r\n",
                Multipart.dicom("H15", List.of(MR)));
        assertThat(stow.status()).isEqualTo(200);
        assertThat(stow.text()).contains("http://pacs.example.test/dicomweb/studies/");
        RawHttp.Response put = http.send("PUT", "/images/h/put.gif", "Host: pacs.example.test:8443\r\n" + auth(),
                Samples.bytes(Samples.gif("ct-small.gif")));
        assertThat(put.status()).isEqualTo(201);
        assertThat(put.header("Location")).isEqualTo("http://pacs.example.test:8443/images/h/put.gif");
    }
}
