package org.medjava.filter.runtime;

import java.nio.file.Path;
import org.medjava.filter.runtime.isolation.WorkerOptions;

/** {@link FilterRegistryGray16Test} with every plugin in confined filter worker processes. */
class FilterRegistryGray16InWorkersTest extends FilterRegistryGray16Test {
    @Override
    FilterRegistry newRegistry(Path workDir) {
        return new FilterRegistry(workDir, WorkerOptions.defaults().withWorkers(1).withHeapMiB(64));
    }
}
