package org.medjava.filter.runtime;

import java.nio.file.Path;
import org.medjava.filter.runtime.isolation.WorkerOptions;

/** {@link FilterCallLimitsTest} with every plugin in confined filter worker processes. */
class FilterCallLimitsInWorkersTest extends FilterCallLimitsTest {
    @Override
    FilterRegistry newRegistry(Path workDir) {
        return new FilterRegistry(workDir, WorkerOptions.defaults().withWorkers(2).withHeapMiB(64));
    }
}
