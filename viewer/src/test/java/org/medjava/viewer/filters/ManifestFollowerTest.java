package org.medjava.viewer.filters;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.medjava.filter.runtime.FilterRegistry;
import org.medjava.viewer.store.Credentials;
import org.medjava.viewer.store.StoreClient;
import org.medjava.viewer.testsupport.RefusingStore;

/** Following a store that refuses the login. */
class ManifestFollowerTest {

    @Test
    void aRefusedLoginStopsThePollingSoTheStoreDoesNotThrottleTheUser() throws Exception {
        Path work = Files.createTempDirectory("follower-");
        List<String> said = new CopyOnWriteArrayList<>();
        try (RefusingStore store = RefusingStore.everything(401, "the user name or password is wrong");
             FilterCatalog catalog = new FilterCatalog(new FilterRegistry(work.resolve("registry")),
                     work.resolve("downloads"));
             ManifestFollower follower = new ManifestFollower(catalog, new StoreClient(URI.create(store.url()),
                     new Credentials("old", "stale-password".toCharArray())), said::add)) {
            follower.start(Duration.ofMillis(20));
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (said.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            Thread.sleep(300); // fifteen more polls, were it still polling
            assertThat(store.requests()).isEqualTo(1);
            assertThat(said).singleElement().asString().contains("refused this login");
        }
    }
}
