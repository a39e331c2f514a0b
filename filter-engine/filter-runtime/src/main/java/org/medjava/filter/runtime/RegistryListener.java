package org.medjava.filter.runtime;

/** Called on the thread that caused the event; must be quick and must not call back into mutating methods. */
@FunctionalInterface
public interface RegistryListener {
    void onEvent(RegistryEvent event);
}
