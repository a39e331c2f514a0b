package org.medjava.filter.testkit;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * DCMTK's command-line tools (storescu, findscu, dcmdump, ...), found explicitly rather than by name on {@code PATH}:
 * other DICOM toolkits ship tools with the same names (pynetdicom installs its own {@code storescu}, {@code findscu}
 * and {@code echoscu} scripts, with other options), and whichever comes first on {@code PATH} would run. A candidate is
 * DCMTK's when its {@code --version} output starts with DCMTK's {@code $dcmtk: <tool> v<version> <date> $} line.
 *
 * <p>Where: the directory named by the system property {@value #DIR_PROPERTY} or the environment variable
 * {@value #DIR_VARIABLE} (the tool must be there, in it or its {@code bin/}, and be DCMTK's), else the first DCMTK
 * one of {@code PATH}'s directories, then {@code /usr/bin}, {@code /usr/local/bin}, {@code /opt/homebrew/bin}.
 */
public final class DcmtkTools {

    public static final String DIR_PROPERTY = "medjava.dcmtk.dir";
    public static final String DIR_VARIABLE = "MEDJAVA_DCMTK_DIR";
    private static final List<String> USUAL_DIRS = List.of("/usr/bin", "/usr/local/bin", "/opt/homebrew/bin");
    private static final Map<String, String> FOUND = new ConcurrentHashMap<>();

    private DcmtkTools() {
    }

    /**
     * The absolute path of DCMTK's {@code tool} (looked up once).
     *
     * @throws IllegalStateException when it is not installed, or the one configured is not DCMTK's, with what was
     *                               found and what to do
     */
    public static String path(String tool) {
        return FOUND.computeIfAbsent(tool, t -> locate(t, configuredDir(), searchDirs()).toString());
    }

    /** Whether DCMTK's {@code tool} is installed (for a test that is skipped without it). */
    public static boolean installed(String tool) {
        try {
            path(tool);
            return true;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /**
     * DCMTK's {@code tool}: in {@code configuredDir} (or its {@code bin/}) when that is set, else the first of
     * {@code searchDirs} that holds DCMTK's.
     */
    public static Path locate(String tool, String configuredDir, List<String> searchDirs) {
        if (tool.isEmpty() || tool.contains("/") || tool.contains(File.separator)) {
            throw new IllegalArgumentException("a DCMTK tool's name, not a path: " + tool);
        }
        List<String> notDcmtk = new ArrayList<>();
        List<String> dirs = configuredDir == null || configuredDir.isBlank() ? searchDirs
                : List.of(configuredDir, Path.of(configuredDir, "bin").toString());
        for (String dir : dirs) {
            if (dir.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(dir, tool).toAbsolutePath();
            if (!Files.isRegularFile(candidate) || !Files.isExecutable(candidate)) {
                continue;
            }
            String version = version(candidate);
            if (version.startsWith("$dcmtk: ")) {
                return candidate;
            }
            notDcmtk.add(candidate + " (its --version says: " + firstLine(version) + ")");
        }
        String where = configuredDir == null || configuredDir.isBlank()
                ? "PATH and " + String.join(", ", USUAL_DIRS)
                : configuredDir + " (set by " + DIR_PROPERTY + " or " + DIR_VARIABLE + ")";
        throw new IllegalStateException("DCMTK's " + tool + " is not in " + where
                + (notDcmtk.isEmpty() ? "" : "; not DCMTK's: " + String.join("; ", notDcmtk))
                + ". Install DCMTK (bootstrap/install-deps.sh) or name its directory with -D" + DIR_PROPERTY
                + "=... or " + DIR_VARIABLE + ".");
    }

    private static String configuredDir() {
        String dir = System.getProperty(DIR_PROPERTY);
        return dir != null && !dir.isBlank() ? dir : System.getenv(DIR_VARIABLE);
    }

    private static List<String> searchDirs() {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "")
                .split(File.pathSeparator)));
        dirs.addAll(USUAL_DIRS);
        return dirs;
    }

    /** What {@code tool --version} prints (stdout and stderr), or why it could not run. */
    private static String version(Path tool) {
        try {
            Process p = new ProcessBuilder(tool.toString(), "--version").redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
            byte[] out;
            try (InputStream in = p.getInputStream()) {
                out = in.readNBytes(4096);
            }
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "nothing in 20 s";
            }
            return new String(out, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "it cannot run: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }

    private static String firstLine(String text) {
        int end = text.indexOf('\n');
        return end < 0 ? text : text.substring(0, end).strip();
    }
}
