package org.medjava.cli.command;

import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What a command runs in: the checkout it belongs to, the caller's directory (every path on the command line or in
 * MEDJAVA_DATA is the caller's), the environment, and the output streams. Tests give their own.
 */
public record Context(Path root, Path cwd, Map<String, String> env, PrintStream out, PrintStream err) {

    /** The running process's: the checkout from -Dmedjava.home (the launcher sets it), else from this JAR's place. */
    public static Context of(PrintStream out, PrintStream err) {
        String home = System.getProperty("medjava.home");
        Path root = home != null ? Path.of(home) : codeLocation().resolve("../..").normalize();
        return new Context(root.toAbsolutePath(), Path.of("").toAbsolutePath(), System.getenv(), out, err);
    }

    /**
     * The root command, which holds the context its subcommands run in: an interface here, so that the subcommands
     * find it without naming the root command, which names them.
     */
    public interface Holder {
        Context context();
    }

    /** The context of the command line that {@code spec} belongs to. */
    public static Context of(CommandSpec spec) {
        return ((Holder) spec.root().userObject()).context();
    }

    /** cli/target, where the JAR or the classes directory is. */
    public static Path codeLocation() {
        try {
            Path code = Path.of(Context.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return code.getParent();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A path as the caller means it: relative ones against the caller's directory. */
    public Path path(String given) {
        return cwd.resolve(given).normalize();
    }

    public String env(String key, String otherwise) {
        String value = env.get(key);
        return value == null || value.isEmpty() ? otherwise : value;
    }

    public boolean isSet(String key) {
        return !env(key, "").isEmpty();
    }

    /** The store's data directory: MEDJAVA_DATA (MEDJAVA_DATA_DIR too), else data/store in the checkout. */
    public Path storeData() {
        return path(env("MEDJAVA_DATA", env("MEDJAVA_DATA_DIR", root.resolve("data/store").toString())));
    }

    /** The image store's build output. */
    public Path store() {
        return root.resolve("image-store/target");
    }

    /** The store's public port (MEDJAVA_PORT, 8080). */
    public int port() {
        String value = env("MEDJAVA_PORT", "8080");
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new CliException("MEDJAVA_PORT=" + value + " is not a port number; set it to one, e.g. 8080", 2);
        }
    }

    /** The sample images a new store is seeded with: the shared set when there is one, else the checkout's. */
    public Path samples() {
        Path shared = root.resolve("../shared/testdata").normalize();
        return java.nio.file.Files.isDirectory(shared.resolve("dicom")) ? shared : root.resolve("testdata/samples");
    }
}
