package org.medjava.viewer.ui;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/** Keeps a screenshot of the viewer as it was when a GUI test failed: target/screenshots/failed-&lt;test&gt;.png. */
final class ScreenshotOnFailure implements TestExecutionExceptionHandler {
    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        ViewerDriver driver = ViewerDriver.current();
        if (driver != null) {
            try {
                System.err.println("GUI test failed; status bar: " + driver.onEdt(() -> driver.frame.statusBar()
                        .message()) + "; screenshot " + driver.screenshot("failed-" + context.getDisplayName()
                        .replaceAll("[^A-Za-z0-9]+", "-")));
            } catch (Exception | AssertionError e) {
                failure.addSuppressed(e);
            }
        }
        throw failure;
    }
}
