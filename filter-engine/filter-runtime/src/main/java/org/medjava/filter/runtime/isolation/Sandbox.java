package org.medjava.filter.runtime.isolation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * What the operating system offers here to confine a filter worker, found once at start, and the command line that
 * uses the strongest of it. Java has no SecurityManager any more, so the confinement is the kernel's:
 * <ul>
 * <li>bubblewrap ({@code bwrap}, Debian's {@code bubblewrap}) puts the worker into new user, PID, network (loopback
 * only), mount, IPC and UTS namespaces, with a filesystem of only the JDK, the system libraries, the worker's code
 * and plugins (read-only) and its own shared segment;</li>
 * <li>when the host runs as root, {@code setpriv} drops the worker to user 65534 with no capabilities and
 * no-new-privileges before bubblewrap runs;</li>
 * <li>control groups ({@link Cgroups}) cap its memory (heap and native) and its tasks (threads);</li>
 * <li>always: a process of its own with an empty environment, killed with SIGKILL when it overruns.</li>
 * </ul>
 */
public final class Sandbox {
    static final int NOBODY = 65534;

    private final Path bwrap;
    private final Path setpriv;
    private final Optional<Cgroups> cgroups;

    private Sandbox(Path bwrap, Path setpriv, Optional<Cgroups> cgroups) {
        this.bwrap = bwrap;
        this.setpriv = setpriv;
        this.cgroups = cgroups;
    }

    /** Looks at this machine: which tools exist and work, whether this process may create control groups. */
    public static Sandbox detect() {
        Path setpriv = isRoot() ? onPath("setpriv") : null;
        Path bwrap = onPath("bwrap");
        if (bwrap != null && !works(prefix(setpriv, bwrap, List.of("--unshare-all", "--ro-bind", "/", "/",
                "--proc", "/proc", "--dev", "/dev", "true")))) {
            bwrap = null; // installed, but user namespaces are off (or the kernel refuses them to this user)
        }
        return new Sandbox(bwrap, setpriv, Cgroups.detect("medjava-filters-"));
    }

    /** Whether the worker is confined beyond a process of its own (namespaces: files, network). */
    public boolean confines() {
        return bwrap != null;
    }

    /** The protections a worker gets here, in words, for the log and {@code /health}. */
    public List<String> protections(WorkerOptions options) {
        List<String> words = new ArrayList<>();
        words.add("own process with an empty environment, killed (SIGKILL) when it overruns");
        words.add("heap capped at " + options.heapMiB() + " MiB");
        if (bwrap != null) {
            words.add("namespaces (bubblewrap): user, pid, mount, ipc, uts, network with loopback only");
            words.add("filesystem: the JDK, system libraries, its code and plugins read-only, its own segment");
        }
        if (setpriv != null && bwrap != null) {
            words.add("unprivileged user " + NOBODY + ", no capabilities, no new privileges");
        }
        cgroups.ifPresent(c -> words.add("memory capped at " + (options.memoryCapBytes() >> 20)
                + " MiB and tasks at " + options.maxTasks() + " (" + c.describe() + ")"));
        return words;
    }

    /** What is missing compared with the strongest confinement, in words (empty when nothing is). */
    public List<String> missing() {
        List<String> words = new ArrayList<>();
        if (bwrap == null) {
            words.add("no namespaces (install bubblewrap and allow user namespaces): a plugin can read and write "
                    + "what the host's user can and use the network");
        }
        if (cgroups.isEmpty()) {
            words.add("no control groups writable by this process: native memory and threads are not capped");
        }
        if (setpriv == null && isRoot()) {
            words.add("no setpriv: the worker keeps the host's user");
        }
        return words;
    }

    /** Whether the worker runs as another user, so files it must write are to be handed to that user. */
    boolean dropsUser() {
        return setpriv != null && bwrap != null;
    }

    Optional<Cgroups.Group> group(String worker, WorkerOptions options) throws IOException {
        if (cgroups.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(cgroups.get().create(worker, options.memoryCapBytes(), options.maxTasks()));
    }

    /** Removes this host's control groups (after its workers are gone). */
    public void close() {
        cgroups.ifPresent(Cgroups::close);
    }

    /**
     * The command that starts {@code java} confined: it joins {@code group} first (a shell writes its own pid, then
     * execs, so not one thread of the worker starts outside its caps), drops to user 65534, enters the namespaces.
     *
     * @param readOnly  paths the worker reads (its code, plugins); bound read-only at the same place
     * @param writable  the worker's own directory (its segment and control socket); bound read-write
     */
    List<String> command(Path java, List<String> javaArgs, List<Path> readOnly, Path writable,
                         Optional<Cgroups.Group> group) {
        List<String> cmd = new ArrayList<>();
        if (group.isPresent()) {
            cmd.addAll(List.of("/bin/sh", "-c", "for f; do [ \"$f\" = -- ] && break; echo $$ > \"$f\" || exit 97;"
                    + " shift; done; shift; exec \"$@\"", "join-cgroup"));
            group.get().procsFiles().forEach(f -> cmd.add(f.toString()));
            cmd.add("--");
        }
        List<String> inner = new ArrayList<>();
        if (bwrap != null) {
            inner.addAll(List.of("--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
                    "--proc", "/proc", "--dev", "/dev", "--chdir", "/"));
            for (String dir : List.of("/usr/lib", "/usr/lib64", "/usr/lib32", "/usr/libx32")) {
                bindSystem(inner, Path.of(dir));
            }
            for (String dir : List.of("/lib", "/lib64", "/lib32", "/libx32")) {
                bindSystem(inner, Path.of(dir));
            }
            Path javaHome = java.getParent().getParent();
            if (!javaHome.startsWith("/usr/lib")) {
                inner.addAll(List.of("--ro-bind", javaHome.toString(), javaHome.toString()));
            }
            for (Path target : linkedFromOutside(javaHome)) {
                inner.addAll(List.of("--ro-bind", target.toString(), target.toString()));
            }
            for (Path path : readOnly) {
                inner.addAll(List.of("--ro-bind", path.toString(), path.toString()));
            }
            inner.addAll(List.of("--bind", writable.toString(), writable.toString()));
        }
        inner.add(java.toString());
        inner.addAll(javaArgs);
        cmd.addAll(bwrap == null ? inner : prefix(setpriv, bwrap, inner));
        return cmd;
    }

    /**
     * Files the JDK links to outside its own directory (Debian keeps {@code conf/} in {@code /etc/java-N-openjdk}):
     * the JVM reads its security configuration there at start, so they are bound, nothing else of {@code /etc}.
     */
    private static List<Path> linkedFromOutside(Path javaHome) {
        List<Path> targets = new ArrayList<>();
        try (var paths = Files.walk(javaHome, 6)) {
            for (Path link : paths.filter(Files::isSymbolicLink).toList()) {
                Path target = link.toRealPath();
                if (!target.startsWith(javaHome) && !target.startsWith("/usr") && Files.isRegularFile(target)) {
                    targets.add(target);
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // a dangling link: the JVM does without it
        }
        return targets;
    }

    /** A system library directory: a symbolic link stays one (merged /usr), a real directory is bound read-only. */
    private static void bindSystem(List<String> args, Path dir) {
        try {
            if (Files.isSymbolicLink(dir)) {
                args.addAll(List.of("--symlink", Files.readSymbolicLink(dir).toString(), dir.toString()));
            } else if (Files.isDirectory(dir)) {
                args.addAll(List.of("--ro-bind", dir.toString(), dir.toString()));
            }
        } catch (IOException ignored) {
            // unreadable: left out of the worker's view
        }
    }

    private static List<String> prefix(Path setpriv, Path bwrap, List<String> bwrapArgs) {
        List<String> cmd = new ArrayList<>();
        if (setpriv != null) {
            cmd.addAll(List.of(setpriv.toString(), "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups",
                    "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs"));
        }
        cmd.add(bwrap.toString());
        cmd.addAll(bwrapArgs);
        return cmd;
    }

    private static boolean works(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Path onPath(String tool) {
        String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
        for (String dir : (path + ":/usr/bin:/usr/sbin:/bin").split(":")) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, tool);
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1].equals("0");
                }
            }
        } catch (IOException | RuntimeException ignored) {
            // not Linux: no setpriv either
        }
        return false;
    }
}
