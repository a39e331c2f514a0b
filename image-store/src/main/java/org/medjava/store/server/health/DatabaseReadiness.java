package org.medjava.store.server.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.medjava.store.core.index.DicomIndex;

/** Ready when the index database answers a trivial query; its round trip in the data ({@code latencyMillis}). */
@Readiness
@ApplicationScoped
public class DatabaseReadiness implements HealthCheck {

    @Inject
    DicomIndex index;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("database").withData("database", index.database().describe());
        long t0 = System.nanoTime();
        try {
            index.ping();
            return response.up().withData("latencyMillis", (System.nanoTime() - t0) / 1_000_000L).build();
        } catch (RuntimeException e) {
            return response.down().withData("error", String.valueOf(e.getMessage())).build();
        }
    }
}
