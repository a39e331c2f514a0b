package org.medjava.store.server.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class ApiDocumentFilterTest {

    @Test
    void regularExpressionsLeaveThePathTemplates() {
        assertThat(ApiDocumentFilter.plainTemplate("/images/{path: .*}")).isEqualTo("/images/{path}");
        assertThat(ApiDocumentFilter.plainTemplate("/filters/{id}/{action: suspend|resume}"))
                .isEqualTo("/filters/{id}/{action}");
        assertThat(ApiDocumentFilter.plainTemplate("/dicomweb/studies/{study}/series/{series}"))
                .isEqualTo("/dicomweb/studies/{study}/series/{series}");
    }

    @Test
    void theServerIsThePublicUrlsPathSoTheBrowserStaysOnItsOrigin() {
        assertThat(ApiDocumentFilter.serverPath(Optional.empty())).isEqualTo("/");
        assertThat(ApiDocumentFilter.serverPath(Optional.of("http://127.0.0.1:8080"))).isEqualTo("/");
        assertThat(ApiDocumentFilter.serverPath(Optional.of("https://pacs.example.org/store")))
                .isEqualTo("/store/");
        assertThat(ApiDocumentFilter.serverPath(Optional.of("https://pacs.example.org/store/"))).isEqualTo("/store/");
    }

    @Test
    void examplesThatAreNotJsonTextStayAsTheyWere() { // JSON text is parsed in the store: OpenApiIT checks it
        assertThat(ApiDocumentFilter.jsonExample("blur:n=3")).isEqualTo("blur:n=3");
        assertThat(ApiDocumentFilter.jsonExample("{not json")).isEqualTo("{not json");
        assertThat(ApiDocumentFilter.jsonExample(42)).isEqualTo(42);
    }
}
