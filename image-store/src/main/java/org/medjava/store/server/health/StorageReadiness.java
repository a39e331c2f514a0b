package org.medjava.store.server.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.repo.ImageRepository;

/**
 * The objects' storage (the image directory, or the S3 bucket): reachable when it can be read and written. While it
 * cannot, the node stays ready as long as its index answers (queries go on; see {@link Capabilities}).
 */
@Readiness
@ApplicationScoped
public class StorageReadiness implements HealthCheck {

    @Inject
    ImageRepository images;

    @Inject
    DicomIndex index;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("storage").withData("storage", images.storage().describe());
        try {
            images.storage().checkAvailable();
            return response.up().withData("reachable", true).build();
        } catch (IOException | RuntimeException e) {
            Capabilities now = Capabilities.probe(images, index);
            return response.status(now.serving()).withData("reachable", false)
                    .withData("error", String.valueOf(e.getMessage())).withData("serves", now.serves()).build();
        }
    }
}
