package org.medjava.filter.runtime;

import java.nio.file.Path;
import org.medjava.filter.runtime.isolation.WorkerOptions;

/** {@link BrokenPluginTest} with every plugin in confined filter worker processes. */
class BrokenPluginInWorkersTest extends BrokenPluginTest {
    @Override
    FilterRegistry newRegistry(Path workDir) {
        return new FilterRegistry(workDir, WorkerOptions.defaults().withWorkers(2).withHeapMiB(64));
    }
}
