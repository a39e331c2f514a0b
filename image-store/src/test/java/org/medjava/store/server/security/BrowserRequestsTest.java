package org.medjava.store.server.security;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link BrowserRequests} and the open paths of {@link StoreAuthenticationMechanism}. */
class BrowserRequestsTest {

    @Test
    void aPagesScriptGetsNoBasicChallenge() {
        assertThat(BrowserRequests.challenge("cors", null)).isEqualTo(BrowserRequests.SESSION_CHALLENGE);
        assertThat(BrowserRequests.challenge("same-origin", null)).startsWith("Session ");
        assertThat(BrowserRequests.challenge(null, "XMLHttpRequest")).startsWith("Session ");
        assertThat(BrowserRequests.challenge("navigate", null)).as("a form's POST").startsWith("Session ");
        assertThat(BrowserRequests.challenge(null, null)).as("curl, DCMTK, the Swing viewer").startsWith("Basic ");
    }

    @Test
    void navigationsAreGetsOfPages() {
        assertThat(BrowserRequests.isNavigation("GET", "navigate", null, "text/html,application/xhtml+xml")).isTrue();
        assertThat(BrowserRequests.isNavigation("GET", null, null, "text/html")).as("an older browser").isTrue();
        assertThat(BrowserRequests.isNavigation("GET", "cors", null, "text/html")).isFalse();
        assertThat(BrowserRequests.isNavigation("GET", null, "XMLHttpRequest", "text/html")).isFalse();
        assertThat(BrowserRequests.isNavigation("GET", null, null, "application/json")).isFalse();
        assertThat(BrowserRequests.isNavigation("GET", null, null, null)).isFalse();
        assertThat(BrowserRequests.isNavigation("POST", "navigate", null, "text/html")).isFalse();
    }

    @Test
    void theLoginRedirectStaysOnThisStore() {
        assertThat(BrowserRequests.loginRedirect("", "/images/samples/", null))
                .isEqualTo("/viewer/?next=%2Fimages%2Fsamples%2F");
        assertThat(BrowserRequests.loginRedirect("/store", "/images/a.dcm", "render=png&window=40,400"))
                .isEqualTo("/store/viewer/?next=%2Fimages%2Fa.dcm%3Frender%3Dpng%26window%3D40%2C400");
        assertThat(BrowserRequests.loginRedirect("", "//evil.example.com/x", null))
                .isEqualTo("/viewer/?next=%2Fevil.example.com%2Fx");
        assertThat(BrowserRequests.loginRedirect("", "/\\evil.example.com", null))
                .isEqualTo("/viewer/?next=%2Fevil.example.com");
    }

    @Test
    void onlyPlainSpellingsOfOpenPathsAreOpen() {
        for (String open : new String[] {"", "/", "/viewer", "/viewer/", "/viewer/assets/app-1.js", "/ohif/",
                "/ohif/index.html", "/auth/login", "/auth/logout", "/health/ready", "/metrics", "/openapi",
                "/viewer/a%20b.png", "/api", "/api/", "/api/swagger-ui-bundle.js", "/favicon.ico"}) {
            assertThat(StoreAuthenticationMechanism.isOpen(open)).as(open).isTrue();
        }
        for (String closed : new String[] {"/auth/me", "/images/", "/viewerx", "/apix", "/viewer/../images/x.dcm",
                "/viewer/%2e%2e/images/x.dcm", "/viewer/..%2fimages", "/viewer/.", "/viewer;x=1/../images",
                "/viewer/..\\images", "/viewer//images", "/ohif/%00", "/health/../admin/users", "/admin/users",
                "/dicomweb/studies", "/viewer/%zz", "/favicon.icox", "/favicon.ico/../images/x.dcm"}) {
            assertThat(StoreAuthenticationMechanism.isOpen(closed)).as(closed).isFalse();
        }
    }
}
