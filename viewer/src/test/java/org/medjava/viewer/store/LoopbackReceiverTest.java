package org.medjava.viewer.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.oauth2.sdk.id.State;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LoopbackReceiverTest {
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    HttpResponse<String> get(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void listensOnTheLoopbackIpLiteralWithAPortOfItsOwn() throws Exception {
        try (LoopbackReceiver receiver = LoopbackReceiver.start(new State())) {
            URI redirect = receiver.redirectUri();
            assertThat(redirect.getScheme()).isEqualTo("http");
            assertThat(redirect.getHost()).isEqualTo("127.0.0.1");
            assertThat(redirect.getPort()).isPositive();
            assertThat(redirect.getPath()).isEqualTo("/callback");
        }
    }

    @Test
    void theCodeOfTheRightStateIsTakenAndTheUserSentBackToTheViewer() throws Exception {
        State state = new State();
        try (LoopbackReceiver receiver = LoopbackReceiver.start(state)) {
            HttpResponse<String> page = get(URI.create(receiver.redirectUri() + "?code=the-code&state=" + state));

            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("Return to the MedJava viewer");
            assertThat(receiver.await(Duration.ofSeconds(5)).getValue()).isEqualTo("the-code");
        }
    }

    @Test
    void aForeignStateEndsTheSignIn() throws Exception {
        try (LoopbackReceiver receiver = LoopbackReceiver.start(new State())) {
            HttpResponse<String> page = get(URI.create(receiver.redirectUri() + "?code=stolen&state=other"));

            assertThat(page.statusCode()).isEqualTo(400);
            assertThatThrownBy(() -> receiver.await(Duration.ofSeconds(5))).isInstanceOf(SignInFailed.class)
                    .hasMessageContaining("did not belong to this sign-in");
        }
    }

    @Test
    void theProvidersErrorIsToldInWords() throws Exception {
        State state = new State();
        try (LoopbackReceiver receiver = LoopbackReceiver.start(state)) {
            HttpResponse<String> page = get(URI.create(receiver.redirectUri() + "?error=access_denied"
                    + "&error_description=User%20%3Cb%3Edenied%3C%2Fb%3E&state=" + state));

            assertThat(page.statusCode()).isEqualTo(400);
            assertThat(page.body()).contains("&lt;b&gt;denied").doesNotContain("<b>denied");
            assertThatThrownBy(() -> receiver.await(Duration.ofSeconds(5))).isInstanceOf(SignInFailed.class)
                    .hasMessage("The sign-in was refused: User <b>denied</b> (access_denied).");
        }
    }

    @Test
    void onlyTheFirstCallbackCounts() throws Exception {
        State state = new State();
        try (LoopbackReceiver receiver = LoopbackReceiver.start(state)) {
            assertThat(get(URI.create(receiver.redirectUri() + "?code=first&state=" + state)).statusCode())
                    .isEqualTo(200);
            HttpResponse<String> second = get(URI.create(receiver.redirectUri() + "?code=second&state=" + state));

            assertThat(second.statusCode()).isEqualTo(409);
            assertThat(receiver.await(Duration.ofSeconds(5)).getValue()).isEqualTo("first");
            assertThat(get(URI.create("http://127.0.0.1:" + receiver.redirectUri().getPort() + "/other"))
                    .statusCode()).isEqualTo(404);
        }
    }

    @Test
    void noAnswerInTimeIsToldAndSoIsACancel() throws Exception {
        try (LoopbackReceiver receiver = LoopbackReceiver.start(new State())) {
            assertThatThrownBy(() -> receiver.await(Duration.ofMillis(200))).isInstanceOf(SignInFailed.class)
                    .hasMessageStartingWith("No answer from the sign-in page within");
        }
        LoopbackReceiver cancelled = LoopbackReceiver.start(new State());
        cancelled.close();
        assertThatThrownBy(() -> cancelled.await(Duration.ofSeconds(5))).isInstanceOf(SignInFailed.class)
                .hasMessage("The sign-in was cancelled.");
    }
}
