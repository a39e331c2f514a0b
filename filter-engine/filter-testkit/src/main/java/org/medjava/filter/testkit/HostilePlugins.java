package org.medjava.filter.testkit;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Plugins that attack their host, one attack each, for the tests that show filter workers contain them (issue 31).
 * Each plugin {@code hostile-<attack>} offers one filter of the same id that filters RGB and grey data alike; the
 * attack runs when the filter is called, except {@link Attack#EXIT_AT_LOAD}, which runs while the plugin loads.
 * An attack that gets through leaves its trace where the test looks: bytes of a file it read in the image, a file
 * it wrote, a connection a test server accepts, threads or memory that stay.
 */
public final class HostilePlugins {
    /** What a hostile plugin does. */
    public enum Attack {
        /** {@code System.exit(1)} in the filter. */
        EXIT,
        /** {@code System.exit(3)} in the provider's static initializer, while the host loads it. */
        EXIT_AT_LOAD,
        /** Reads the file {@code target} and writes its first bytes into the image. */
        READ_FILE,
        /** Writes the file {@code target}. */
        WRITE_FILE,
        /** Runs {@code id} (or {@code target} if given) and writes its output into the image. */
        EXEC,
        /** Connects to {@code target}, "host:port", and sends a line. */
        CONNECT,
        /** Starts 1,000 threads that never end, on every call. */
        THREAD_BOMB,
        /** Allocates 64 MiB blocks and keeps them until it runs out. */
        MEMORY_BOMB,
        /** Spins on a core and ignores cancellation and interrupts. */
        INFINITE_LOOP,
        /** Copies a native library (the file {@code target}) to the temporary directory and loads it. */
        NATIVE_LOAD
    }

    private HostilePlugins() {
    }

    /** The plugin id (and filter id) of an attack: {@code hostile-exit-at-load} and so on. */
    public static String id(Attack attack) {
        return "hostile-" + attack.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }

    /**
     * Builds the plugin of {@code attack} into {@code jar}, signed like every test plugin.
     *
     * @param target what the attack aims at (a file, "host:port", a program); see {@link Attack}
     */
    public static Path build(Path jar, Attack attack, String target) throws IOException {
        String pkg = "hostile." + attack.name().toLowerCase(java.util.Locale.ROOT).replace("_", "");
        String literal = target == null ? "null" : "\"" + target.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        String source = """
                package %1$s;
                import java.io.*;
                import java.nio.file.*;
                import java.util.*;
                import org.medjava.filter.*;
                import org.medjava.filter.spi.*;
                public class Provider implements FilterProvider {
                    static final String TARGET = %3$s;
                    static final List<Object> KEPT = new ArrayList<>();
                    static {
                        %4$s
                    }
                    public List<Filter> filters() {
                        return List.of(new Filter() {
                            final FilterDescriptor d = FilterDescriptor.builder("%2$s").version("1").build();
                            public FilterDescriptor descriptor() { return d; }
                            public void apply(Raster src, Raster dst, Region r, FilterParams p, Implementation i) {
                                attack(dst.rgb());
                            }
                            public boolean supportsGray16() { return true; }
                            public void applyGray16(GrayRaster16 src, GrayRaster16 dst, Region r, FilterParams p,
                                                    Implementation i) {
                                byte[] out = new byte[dst.words().length];
                                attack(out);
                                for (int k = 0; k < out.length; k++) dst.words()[k] = (short) (out[k] & 0xff);
                            }
                        });
                    }
                    static void attack(byte[] out) {
                        try {
                            %5$s
                        } catch (RuntimeException e) {
                            throw e;
                        } catch (Exception e) {
                            throw new IllegalStateException("attack failed: " + e, e);
                        }
                    }
                }
                """.formatted(pkg, id(attack), literal, attack == Attack.EXIT_AT_LOAD ? "System.exit(3);" : "",
                body(attack));
        return PluginJarBuilder.plugin(id(attack)).version("1").source(pkg + ".Provider", source)
                .provider(pkg + ".Provider").build(jar);
    }

    private static String body(Attack attack) {
        return switch (attack) {
            case EXIT -> "System.exit(1);";
            case EXIT_AT_LOAD -> "";
            case READ_FILE -> """
                    byte[] secret = Files.readAllBytes(Path.of(TARGET));
                    System.arraycopy(secret, 0, out, 0, Math.min(secret.length, out.length));""";
            case WRITE_FILE -> "Files.writeString(Path.of(TARGET), \"written by a plugin\");";
            case EXEC -> """
                    Process p = new ProcessBuilder(TARGET == null ? "id" : TARGET).start();
                    byte[] said = p.getInputStream().readAllBytes();
                    p.waitFor();
                    System.arraycopy(said, 0, out, 0, Math.min(said.length, out.length));""";
            case CONNECT -> """
                    String[] hp = TARGET.split(":");
                    try (java.net.Socket s = new java.net.Socket()) {
                        s.connect(new java.net.InetSocketAddress(hp[0], Integer.parseInt(hp[1])), 2000);
                        s.getOutputStream().write("hello from a plugin\\n".getBytes());
                    }""";
            case THREAD_BOMB -> """
                    for (int k = 0; k < 1000; k++) {
                        Thread t = new Thread(() -> {
                            while (true) {
                                try { Thread.sleep(60_000); } catch (InterruptedException ignored) { }
                            }
                        });
                        t.setDaemon(true);
                        t.start();
                    }
                    Thread.sleep(1);""";
            case MEMORY_BOMB -> """
                    while (true) {
                        KEPT.add(new byte[64 << 20]);
                        Thread.sleep(0);
                    }""";
            case INFINITE_LOOP -> """
                    long spins = 0;
                    while (!Boolean.getBoolean("medjava.never")) {
                        spins++;
                        if (Thread.interrupted()) spins--; // deaf to interrupts, never checks cancellation
                    }
                    Thread.sleep(spins);""";
            case NATIVE_LOAD -> """
                    Path copy = Files.createTempFile("plugin", ".so");
                    Files.copy(Path.of(TARGET), copy, StandardCopyOption.REPLACE_EXISTING);
                    System.load(copy.toString());""";
        };
    }
}
