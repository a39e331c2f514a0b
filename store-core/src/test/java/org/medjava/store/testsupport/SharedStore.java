package org.medjava.store.testsupport;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One store (default configuration, seeded with the eight plugins) shared by all integration test classes that
 * {@code @ExtendWith(SharedStore.class)}: Payara Micro starts once per test run, and stops when the run ends.
 */
public final class SharedStore implements BeforeAllCallback {

    private static PayaraStore store;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (SharedStore.class) {
            if (store == null) {
                store = PayaraStore.named("shared").seedPlugins().start();
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
