package org.medjava.codec.testsupport;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** The independent command-line tools the codec tests check against (dciodvfy, opj_*, ojph_*, python3). */
public final class Tools {

    private Tools() {
    }

    /** What a tool printed (stdout and stderr together) and how it ended. */
    public record Result(int exitCode, String output) {
    }

    public static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The python3 on the PATH if it has these modules, else the system's /usr/bin/python3 (Debian's packages) if that
     * has them, else null.
     */
    public static String python(String... modules) throws Exception {
        for (String python : new String[] {"python3", "/usr/bin/python3"}) {
            if ((python.startsWith("/") ? Files.isExecutable(Path.of(python)) : onPath(python))
                    && run(python, "-c", "import " + String.join(", ", modules) + "; print('ok')").output()
                    .startsWith("ok")) {
                return python;
            }
        }
        return null;
    }

    /** Runs a tool to its end (at most a minute). */
    public static Result run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " did not end within a minute");
        }
        return new Result(p.exitValue(), output);
    }

    /** Runs a tool that must succeed; its output otherwise says why it did not. */
    public static String check(String... command) throws Exception {
        Result result = run(command);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (" + result.exitCode() + "): "
                    + result.output());
        }
        return result.output();
    }
}
