package org.medjava.store.server.config;

import java.nio.file.Path;
import org.medjava.filter.runtime.PluginTrust;

/** Whose filter plugins the store runs: the trusted publishers' certificates and what happens to other JARs. */
public record PluginSettings(PluginTrust.Policy signatures, Path trustedPublishers) {

    /**
     * What the store does with a plugin JAR that is not signed by a trusted publisher (unsigned, changed after
     * signing, partly signed, signed by an untrusted key, a certificate expired or not yet valid): {@code require}
     * refuses it (an install answers 422 saying why; nothing is kept), {@code quarantine} refuses it too but keeps
     * the upload in {@code <data-dir>/plugins/quarantine/} for an administrator to inspect, {@code off} loads any
     * plugin (as before signed plugins). The check runs before any code of the plugin does.
     */
    static final Key SIGNATURES = Key.of("medjava.plugins.signatures", "require");

    /**
     * The trusted plugin publishers: a directory of PEM or DER certificates ({@code *.pem}, {@code *.crt},
     * {@code *.cer}), each a publisher's own certificate or the authority that issued it; read at start (restart
     * after changing it). Unset: {@code <data-dir>/trusted-publishers}, which the first start fills with the
     * certificate of the publisher of the built-in plugins (beside the seed plugins, {@code trusted-publishers/}).
     */
    static final Key TRUSTED_PUBLISHERS = Key.of("medjava.plugins.trusted-publishers");

    public static PluginSettings from(SettingsSource source, Path dataDir) {
        String policy = source.string(SIGNATURES);
        PluginTrust.Policy signatures;
        try {
            signatures = PluginTrust.Policy.parse(policy);
        } catch (IllegalArgumentException e) {
            throw new SettingException(SIGNATURES, policy, "write require, quarantine or off");
        }
        return new PluginSettings(signatures, DataSettings.path(source, TRUSTED_PUBLISHERS)
                .orElse(dataDir.resolve("trusted-publishers")).toAbsolutePath().normalize());
    }
}
