package org.medjava.store.server.health;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;
import org.medjava.store.core.storage.DiskSpaceGuard;

/**
 * The free space of the data directory's disk against the floor (medjava.storage.min-free-bytes), and whether
 * writes are accepted. Below the floor the check still says UP, with {@code writesAccepted: false} and why: a
 * readiness DOWN takes the node out of a load balancer for reads as well, and reads go on when the disk is full
 * (a single node would answer nothing at all). Writes get 507 / A700 saying the same; alert on
 * {@code medjava_storage_writable == 0}.
 */
@Readiness
@ApplicationScoped
public class DiskSpaceReadiness implements HealthCheck {

    @Inject
    DiskSpaceGuard space;

    @Override
    public HealthCheckResponse call() {
        DiskSpaceGuard.Status status = space.status();
        return HealthCheckResponse.named("disk-space").up()
                .withData("freeBytes", status.freeBytes())
                .withData("minFreeBytes", status.minFreeBytes())
                .withData("writesAccepted", status.writable())
                .withData("directory", String.valueOf(status.directory()))
                .withData("status", status.describe()).build();
    }
}
