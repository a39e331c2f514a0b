package org.medjava.store.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** medjava.public-url as the base of absolute links. */
class PublicUrlSettingTest {

    @Test
    void aBaseEndsWithASlashAndKeepsItsPrefix() {
        assertThat(LinkSettings.baseUri("https://pacs.example.org/medjava")).hasToString(
                "https://pacs.example.org/medjava/");
        assertThat(LinkSettings.baseUri("http://127.0.0.1:8080/")).hasToString("http://127.0.0.1:8080/");
        assertThat(LinkSettings.baseUri("https://pacs.example.org")).hasToString("https://pacs.example.org/");
    }

    @Test
    void whatIsNotAnAbsoluteHttpUrlIsRefusedNamingTheSetting() {
        for (String bad : new String[] {"pacs.example.org/medjava", "ftp://pacs.example.org/", "/medjava",
                "https://pacs.example.org/?x=1", "https://pacs example.org/"}) {
            assertThatThrownBy(() -> LinkSettings.baseUri(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("medjava.public-url");
        }
    }
}
