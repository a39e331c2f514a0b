package org.medjava.store.server.health;

import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.filters.FilterRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready while the node can serve something: its storage or its index database answers ({@link Capabilities}); what
 * it serves is in the data ({@code serves}), with the number of indexed instances when the index answers.
 */
@Readiness
@ApplicationScoped
public class StoreReadiness implements HealthCheck {

    @Inject
    FilterRepository filters;

    @Inject
    ImageRepository images;

    @Inject
    DicomIndex index;

    @Override
    public HealthCheckResponse call() {
        var response = HealthCheckResponse.named("image-store");
        try {
            Capabilities now = Capabilities.probe(images, index);
            response.status(now.serving()).withData("imagesWritable", now.storage())
                    .withData("storage", images.storage().describe()).withData("serves", now.serves())
                    .withData("plugins", filters.plugins().size());
            var isolation = filters.registry().isolation();
            response.withData("pluginIsolation", isolation.mode() + (isolation.protections().isEmpty() ? ""
                    : ": " + String.join("; ", isolation.protections())));
            if (!isolation.missing().isEmpty()) {
                response.withData("pluginIsolationMissing", String.join("; ", isolation.missing()));
            }
            if (now.index()) {
                response.withData("indexedInstances", index.count());
            }
            return response.build();
        } catch (RuntimeException e) {
            return response.down().withData("error", String.valueOf(e.getMessage())).build();
        }
    }
}
