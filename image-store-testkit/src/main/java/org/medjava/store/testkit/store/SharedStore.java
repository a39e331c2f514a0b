package org.medjava.store.testkit.store;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One store (default configuration but a small {@value #MAX_SERIES_INSTANCES}-instance limit for derive-series jobs,
 * so that a 413 needs only a few uploads; seeded with the eight plugins) shared by all integration test classes that
 * {@code @ExtendWith(SharedStore.class)}: Payara Micro starts once per test run, and stops when the run ends.
 */
public final class SharedStore implements BeforeAllCallback {

    /** The shared store's {@code medjava.jobs.max-series-instances}. */
    public static final int MAX_SERIES_INSTANCES = 12;

    private static PayaraStore store;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (SharedStore.class) {
            if (store == null) {
                store = PayaraStore.named("shared").seedPlugins()
                        .property("medjava.jobs.max-series-instances", Integer.toString(MAX_SERIES_INSTANCES))
                        .start();
                context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                        .put(SharedStore.class.getName(), (ExtensionContext.Store.CloseableResource) () -> {
                            store.close();
                            store = null;
                        });
            }
        }
    }

    public static PayaraStore store() {
        return store;
    }
}
