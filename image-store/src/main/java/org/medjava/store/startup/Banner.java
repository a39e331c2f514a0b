package org.medjava.store.startup;

import java.time.Duration;
import org.medjava.store.config.StoreConfig;
import org.medjava.store.security.UserStore;

/** What a person starting the store needs to see: where it is, how to log in, what it holds. */
final class Banner {

    private Banner() {
    }

    static void print(StoreConfig config, UserStore users, String newAdminPassword, int plugins, int seeded,
                      Duration startup, String dicom) {
        String url = config.publicUrl().orElse("http://localhost:<port>");
        StringBuilder b = new StringBuilder("\n");
        b.append("==================== MedJava image store ====================\n");
        b.append("  viewer:      ").append(url).append("/viewer/   (the web application; OHIF at /ohif/)\n");
        b.append("  browse:      ").append(url).append("/images/\n");
        b.append("  filters:     ").append(url).append("/filters\n");
        b.append("  health:      ").append(url).append("/health   metrics: /metrics   API: /openapi\n");
        b.append("  api:         ").append(url).append("/api/   (the API browser)\n");
        b.append("  dicomweb:    ").append(url).append("/dicomweb/studies   (QIDO-RS, WADO-RS, STOW-RS)\n");
        b.append("  dicom:       ").append(dicom).append('\n');
        b.append("  data:        ").append(config.dataDir()).append('\n');
        if (newAdminPassword != null) {
            b.append("  login:       admin / ").append(newAdminPassword)
                    .append("   (shown this once; stored hashed in users.properties)\n");
        } else {
            b.append("  login:       accounts ").append(users.roles().keySet())
                    .append(" (the admin password was shown on first start)\n");
        }
        b.append("  reads:       ").append(config.anonymousRead() ? "anonymous allowed" : "need a login").append('\n');
        b.append("  plugins:     ").append(plugins).append(" loaded");
        if (seeded > 0) {
            b.append("; ").append(seeded).append(" sample images stored under /images/samples/");
        }
        b.append("\n  started in:  ").append(startup.toMillis()).append(" ms (application)\n");
        b.append("==============================================================\n");
        // A banner for the operator's console, deliberately not a log record: it carries a one-time password.
        System.out.println(b);
    }
}
