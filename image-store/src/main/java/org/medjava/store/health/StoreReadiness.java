package org.medjava.store.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Files;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.medjava.store.startup.StoreServices;

/** Ready when the data directory is writable and the index database answers. */
@Readiness
@ApplicationScoped
public class StoreReadiness implements HealthCheck {

    @Inject
    StoreServices services;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("image-store");
        try {
            boolean writable = Files.isWritable(services.images().root());
            long indexed = services.index().count();
            return response.status(writable).withData("imagesWritable", writable)
                    .withData("indexedInstances", indexed)
                    .withData("plugins", services.filters().plugins().size()).build();
        } catch (RuntimeException e) {
            return response.down().withData("error", String.valueOf(e.getMessage())).build();
        }
    }
}
