package org.medjava.filter.runtime;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.medjava.filter.runtime.isolation.WorkerOptions;

/** {@link FilterRegistryTest} with every plugin in confined filter worker processes. */
class FilterRegistryInWorkersTest extends FilterRegistryTest {
    @Override
    FilterRegistry newRegistry(Path workDir) {
        return new FilterRegistry(workDir, WorkerOptions.defaults().withWorkers(2).withHeapMiB(64));
    }

    // What these look at lives in the workers, out of the host's reach: the plugin's own class loader.

    @Override
    boolean pluginsWriteFiles() {
        return false;
    }

    @Override
    @Test
    void removedPluginsClassLoaderIsGarbageCollected() {
        assumeTrue(false, "the plugin's class loader is in the worker");
    }

    @Override
    @Test
    void replacedVersionsClassLoaderIsGarbageCollected() {
        assumeTrue(false, "the plugin's class loader is in the worker");
    }
}
