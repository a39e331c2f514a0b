package org.medjava.store.health;

import jakarta.enterprise.context.ApplicationScoped;
import java.lang.management.ManagementFactory;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Alive while the application answers: no I/O, no database, nothing that a slow disk or a busy index could delay,
 * so a supervisor restarts the store only when it is truly stuck (readiness says whether it can serve).
 */
@Liveness
@ApplicationScoped
public class StoreLiveness implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("image-store-live").up()
                .withData("uptimeSeconds", ManagementFactory.getRuntimeMXBean().getUptime() / 1000).build();
    }
}
