package org.medjava.store.server.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.repo.ImageRepository;

/**
 * The index database: reachable when it answers a trivial query (its round trip in {@code latencyMillis}). While it
 * does not, the node stays ready as long as its storage answers (reads by path go on; see {@link Capabilities}).
 */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    @Inject
    DicomIndex index;

    @Inject
    ImageRepository images;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("database").withData("database", index.database().describe());
        long t0 = System.nanoTime();
        try {
            index.ping();
            return response.up().withData("reachable", true)
                    .withData("latencyMillis", (System.nanoTime() - t0) / 1_000_000L).build();
        } catch (RuntimeException e) {
            Capabilities now = Capabilities.probe(images, index);
            return response.status(now.serving()).withData("reachable", false)
                    .withData("error", String.valueOf(e.getMessage())).withData("serves", now.serves()).build();
        }
    }
}
