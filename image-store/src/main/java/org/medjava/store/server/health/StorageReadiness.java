package org.medjava.store.server.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.medjava.store.core.repo.ImageRepository;

/** Ready when the objects' storage (the image directory, or the S3 bucket) can be read and written. */
@Readiness
@ApplicationScoped
public class StorageReadiness implements HealthCheck {

    @Inject
    ImageRepository images;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("storage").withData("storage", images.storage().describe());
        try {
            images.storage().checkAvailable();
            return response.up().build();
        } catch (IOException | RuntimeException e) {
            return response.down().withData("error", String.valueOf(e.getMessage())).build();
        }
    }
}
