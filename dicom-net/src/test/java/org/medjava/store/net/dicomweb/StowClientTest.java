package org.medjava.store.net.dicomweb;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.core.route.RouteSender.Outcome;

/** A STOW-RS answer read per instance: stored, held already (0111H: sent), refused, or no answer at all. */
class StowClientTest {
    private static final List<Part10File> FILES = List.of(file("1.1"), file("1.2"), file("1.3"));

    private static Part10File file(String uid) {
        return new Part10File(Path.of(uid + ".dcm"), "1.2.840.10008.5.1.4.1.1.2", uid, "1.2.840.10008.1.2.1", 0);
    }

    @Test
    void readsEachInstancesOutcomeFromTheAnswer() {
        String body = "{\"00081199\":{\"vr\":\"SQ\",\"Value\":[{\"00081155\":{\"vr\":\"UI\",\"Value\":[\"1.1\"]}}]},"
                + "\"00081198\":{\"vr\":\"SQ\",\"Value\":["
                + "{\"00081155\":{\"vr\":\"UI\",\"Value\":[\"1.2\"]},\"00081197\":{\"vr\":\"US\",\"Value\":[273]}},"
                + "{\"00081155\":{\"vr\":\"UI\",\"Value\":[\"1.3\"]},\"00081197\":{\"vr\":\"US\",\"Value\":[49152]}}]}}";
        Map<String, Outcome> out = StowClient.outcomes(202, body, FILES);
        assertThat(out.get("1.1")).isEqualTo(Outcome.ok());
        assertThat(out.get("1.2").sent()).isTrue();
        assertThat(out.get("1.2").note()).contains("held it already");
        assertThat(out.get("1.3").sent()).isFalse();
        assertThat(out.get("1.3").note()).contains("C000H");
    }

    @Test
    void aFailureWithoutAnAnswerFailsEveryInstance() {
        Map<String, Outcome> out = StowClient.outcomes(503, "Service Unavailable", FILES);
        assertThat(out).hasSize(3).allSatisfy((uid, o) -> assertThat(o.note()).isEqualTo("HTTP 503: Service Unavailable"));
        assertThat(StowClient.outcomes(200, "", FILES).values()).allMatch(Outcome::sent);
    }
}
