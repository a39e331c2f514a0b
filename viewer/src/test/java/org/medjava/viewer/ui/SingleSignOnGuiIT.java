package org.medjava.viewer.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.assertj.swing.edt.GuiActionRunner;
import org.assertj.swing.fixture.DialogFixture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.medjava.store.testkit.peers.Keycloak;
import org.medjava.viewer.store.SystemBrowser;
import org.medjava.viewer.testsupport.LocalStore;

/**
 * The viewer signs in through a real OpenID provider (Keycloak, its own process) to a store configured for it: "Sign
 * in with Keycloak" in the real window, the "system browser" being this test's HTTP client, which fills in
 * Keycloak's own login form and follows the redirect to the viewer's loopback receiver. One Keycloak and one store
 * for the class (their own: the shared store has no single sign-on).
 */
@ExtendWith(ScreenshotOnFailure.class)
class SingleSignOnGuiIT {
    static Keycloak keycloak;
    static LocalStore store;
    static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    ViewerDriver viewer;
    ViewerDriver.AWTExceptionGuard guard;
    final CopyOnWriteArrayList<String> pages = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        keycloak = Keycloak.start();
        store = LocalStore.start("store-sso", Map.of("medjava.oidc.issuer", keycloak.issuer(),
                "medjava.oidc.client-id", Keycloak.CLIENT, "medjava.oidc.client-secret", Keycloak.CLIENT_SECRET,
                "medjava.oidc.display-name", "Keycloak"));
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
        if (keycloak != null) {
            keycloak.close();
        }
    }

    @BeforeEach
    void openGuard() {
        guard = ViewerDriver.guard();
    }

    @AfterEach
    void closeViewer() {
        if (viewer != null) {
            viewer.close();
        }
        guard.check(); // no exception escaped: failures are told in the dialog
    }

    /** A browser on its own thread: {@code user} turns the authorization URL into where the browser ends up. */
    SystemBrowser browser(Function<URI, URI> user) {
        return page -> new Thread(() -> {
            try {
                URI back = user.apply(page);
                pages.add(http.send(HttpRequest.newBuilder(back).build(), HttpResponse.BodyHandlers.ofString())
                        .body());
            } catch (Exception | AssertionError e) {
                pages.add("browser failed: " + e);
            }
        }, "test-browser").start();
    }

    DialogFixture signInWith(SystemBrowser browser) throws Exception {
        viewer = ViewerDriver.startAsking(Files.createTempDirectory("viewer-home-"), store.url(), null);
        GuiActionRunner.execute(() -> viewer.frame.useBrowser(browser));
        DialogFixture login = viewer.dialog("connectDialog");
        javax.swing.JButton offered = viewer.robot.finder().findByName(login.target(), "singleSignOn",
                javax.swing.JButton.class, false); // hidden until the store said it offers single sign-on
        viewer.await("the store's single sign-on offered", offered::isShowing);
        var button = login.button("singleSignOn");
        assertThat(button.target().getText()).isEqualTo("Sign in with Keycloak");
        viewer.robot.releaseMouseButtons();
        button.click();
        viewer.await("the sign-in started", () -> !button.target().isEnabled() || !button.target().isShowing()
                || !pages.isEmpty());
        return login;
    }

    @Test
    void aUserSignsInThroughTheProviderAndSeesTheStoresStudies() throws Exception {
        signInWith(browser(page -> {
            assertThat(page.toString()).startsWith(keycloak.issuer()).contains("client_id=medjava-viewer",
                    "code_challenge_method=S256", "code_challenge=", "state=", "nonce=",
                    "redirect_uri=http%3A%2F%2F127.0.0.1%3A");
            try {
                return keycloak.logIn(page, "alice", "alice-password");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }));

        viewer.await("connected as alice, or the browser failed", () -> viewer.frame.client() != null
                || pages.stream().anyMatch(p -> p.startsWith("browser failed")));
        assertThat(pages).noneMatch(p -> p.startsWith("browser failed"));
        viewer.await("connected as alice", () -> viewer.frame.client() != null);
        assertThat(viewer.frame.client().user()).isEqualTo("alice");
        assertThat(viewer.onEdt(viewer.frame::getTitle)).contains("alice @ " + store.url());
        assertThat(pages).singleElement().satisfies(p -> assertThat(p).contains("Return to the MedJava viewer"));
        viewer.window.tabbedPane("browserTabs").selectTab("DICOM");
        var studies = viewer.window.tree("dicomTree");
        viewer.await("the store's studies listed", () -> studies.target().getRowCount() > 1);
        viewer.screenshot("viewer-single-sign-on");
    }

    @Test
    void aRefusalAtTheProviderIsToldInTheDialog() throws Exception {
        DialogFixture login = signInWith(browser(page -> URI.create(redirect(page) + "?error=access_denied"
                + "&error_description=the%20user%20said%20no&state=" + parameter(page, "state"))));

        viewer.await("the refusal told", () -> login.label("connectProblem").target().getText()
                .contains("The sign-in was refused: the user said no"));
        assertThat(viewer.frame.client()).isNull();
        assertThat(pages).singleElement().satisfies(p -> assertThat(p).contains("Not signed in"));
        viewer.clickToClose(login, login.button("connectCancel"));
    }

    @Test
    void anAnswerOfAnotherSignInIsRefused() throws Exception {
        DialogFixture login = signInWith(browser(page -> URI.create(redirect(page) + "?code=stolen&state=other")));

        viewer.await("the foreign answer refused", () -> login.label("connectProblem").target().getText()
                .contains("did not belong to this sign-in"));
        assertThat(viewer.frame.client()).isNull();
        viewer.clickToClose(login, login.button("connectCancel"));
    }

    static String redirect(URI page) {
        return parameter(page, "redirect_uri");
    }

    static String parameter(URI page, String name) {
        for (String pair : page.getRawQuery().split("&")) {
            if (pair.startsWith(name + "=")) {
                return java.net.URLDecoder.decode(pair.substring(name.length() + 1),
                        java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        throw new AssertionError("no " + name + " in " + page);
    }
}
