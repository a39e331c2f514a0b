package org.medjava.filter.runtime;

/** What listeners hear about: the viewer's menus and the store's manifest follow these. */
public sealed interface RegistryEvent {

    record PluginLoaded(PluginInfo plugin) implements RegistryEvent {
    }

    record PluginReplaced(PluginInfo previous, PluginInfo plugin) implements RegistryEvent {
    }

    record PluginRemoved(String pluginId) implements RegistryEvent {
    }

    /** A load, replacement or call failed. {@code stillActive}: an older version keeps serving. */
    record PluginFailed(String pluginId, String reason, boolean stillActive) implements RegistryEvent {
    }

    /**
     * A call of the plugin ignored its cancellation past the grace period: its thread was abandoned and the plugin
     * (if still the active version) is FAILED with {@code reason}. Worth an administrator's attention: the
     * abandoned thread keeps running until the host restarts.
     */
    record PluginQuarantined(String pluginId, String version, String reason) implements RegistryEvent {
    }

    record FilterSuspended(String filterId) implements RegistryEvent {
    }

    record FilterResumed(String filterId) implements RegistryEvent {
    }

    /** Only in benchmark mode ({@link FilterRegistry#setTiming(boolean)}). */
    record FilterApplied(ApplyRecord record) implements RegistryEvent {
    }
}
