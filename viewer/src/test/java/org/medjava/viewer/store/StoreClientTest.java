package org.medjava.viewer.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import org.junit.jupiter.api.Test;

class StoreClientTest {

    @Test
    void serverUrlsTypedByPeopleAreNormalised() {
        assertThat(StoreClient.parseServer("localhost:8080")).isEqualTo(URI.create("http://localhost:8080"));
        assertThat(StoreClient.parseServer(" https://pacs.example:8443/ ")).hasScheme("https");
        assertThatThrownBy(() -> StoreClient.parseServer("")).hasMessageContaining("enter the store's URL");
        assertThatThrownBy(() -> StoreClient.parseServer("ftp://x")).hasMessageContaining("http");
    }

    @Test
    void imagePathsArePercentEncodedSegmentBySegment() {
        StoreClient client = new StoreClient(URI.create("http://h:1/"), new Credentials("u", new char[0]));
        assertThat(client.imageUri("samples/dicom/a b#1.dcm").toString())
                .isEqualTo("http://h:1/images/samples/dicom/a%20b%231.dcm");
        assertThat(client.imageUri("").toString()).isEqualTo("http://h:1/images/");
    }

    @Test
    void readsTheManifestTheStoreWrites() throws Exception {
        String json = """
                {"filterApiVersion":"1.0","plugins":[
                  {"id":"blur","version":"1.0","state":"ACTIVE","sha256":"ab","download":"/filters/blur.jar",
                   "filters":[{"id":"blur","name":"Blur","state":"SUSPENDED","params":[]}]},
                  {"id":"bad","version":"x","state":"FAILED","sha256":null,"download":"/filters/bad.jar",
                   "failure":"no providers","filters":[]}]}""";
        Manifest m = StoreClient.parseManifest(new ObjectMapper().readTree(json), "\"e1\"");
        assertThat(m.etag()).isEqualTo("\"e1\"");
        assertThat(m.plugins()).hasSize(2);
        assertThat(m.plugins().get(0).filters()).singleElement().matches(Manifest.FilterState::suspended);
        assertThat(m.plugins().get(1).active()).isFalse();
    }

    @Test
    void explainsEveryStatusAnUploadMeets() {
        assertThat(StoreClient.explain(401)).contains("log in again");
        assertThat(StoreClient.explain(403)).contains("role");
        assertThat(StoreClient.explain(412)).contains("changed on the store");
        assertThat(StoreClient.explain(413)).contains("limit");
        assertThat(StoreClient.explain(415)).contains("type");
        assertThat(StoreClient.explain(503)).contains("retry");
    }

    @Test
    void credentialsNeverShowTheirPassword() {
        Credentials c = new Credentials("alice", "secret".toCharArray());
        assertThat(c.toString()).doesNotContain("secret");
        assertThat(c.authorization()).isEqualTo("Basic YWxpY2U6c2VjcmV0");
    }
}
