package org.medjava.store.server.health;

import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.filters.FilterRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/** Ready when the data directory is writable and the index database answers. */
@Readiness
@ApplicationScoped
public class StoreReadiness implements HealthCheck {

    @Inject
    FilterRepository filters;

    @Inject
    ImageRepository images;

    @Inject
    DicomIndex index;

    private boolean storageAvailable() {
        try {
            images.storage().checkAvailable();
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("image-store");
        try {
            boolean writable = storageAvailable();
            long indexed = index.count();
            return response.status(writable).withData("imagesWritable", writable)
                    .withData("storage", images.storage().describe())
                    .withData("indexedInstances", indexed)
                    .withData("plugins", filters.plugins().size()).build();
        } catch (RuntimeException e) {
            return response.down().withData("error", String.valueOf(e.getMessage())).build();
        }
    }
}
