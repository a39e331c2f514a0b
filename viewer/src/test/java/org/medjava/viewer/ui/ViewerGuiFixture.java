package org.medjava.viewer.ui;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.medjava.viewer.testsupport.LocalStore;

/**
 * What every GUI test starts from: the shared local store, a guard on exceptions that escape viewer threads, and at
 * most one viewer window per test, closed after it (with a screenshot kept when the test fails).
 */
@ExtendWith(ScreenshotOnFailure.class)
abstract class ViewerGuiFixture {
    protected LocalStore store;
    protected ViewerDriver viewer;
    private ViewerDriver.AWTExceptionGuard guard;

    @BeforeEach
    final void openStoreAndGuard() throws Exception {
        store = LocalStore.shared();
        guard = ViewerDriver.guard();
    }

    @AfterEach
    final void closeViewerAndCheckGuard() {
        if (viewer != null) {
            viewer.close();
        }
        guard.check();
    }

    /** Starts the viewer signed in as the store's admin; {@code benchmarkCsv} may be null. */
    protected final ViewerDriver startViewerAsAdmin(Path benchmarkCsv) throws IOException {
        viewer = ViewerDriver.start(store, "admin", LocalStore.ADMIN_PASSWORD, benchmarkCsv);
        return viewer;
    }

    /** Stores a DICOM file at {@code path} as admin; it must be created (201) or replaced (204). */
    protected final void putDicom(String path, byte[] body) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = store.send(store.admin("/images/" + path).header("Content-Type", "application/dicom")
                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)));
        org.assertj.core.api.Assertions.assertThat(r.statusCode()).as("PUT " + path).isIn(201, 204);
    }
}
