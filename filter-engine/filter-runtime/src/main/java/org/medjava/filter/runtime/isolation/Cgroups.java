package org.medjava.filter.runtime.isolation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Memory and task caps for filter workers from the kernel's control groups: cgroup v2 where the unified hierarchy
 * has the memory and pids controllers, else the v1 {@code memory} and {@code pids} hierarchies. Found only when this
 * process may create groups (root, or a delegated subtree); otherwise the workers run without caps and
 * {@link Sandbox#protections()} says so.
 */
final class Cgroups {
    private static final Path ROOT = Path.of("/sys/fs/cgroup");

    private final boolean v2;
    private final Path memoryBase;
    private final Path pidsBase;

    private Cgroups(boolean v2, Path memoryBase, Path pidsBase) {
        this.v2 = v2;
        this.memoryBase = memoryBase;
        this.pidsBase = pidsBase;
    }

    /**
     * The caps this process can set, or empty; {@code prefix + this pid} is the group this host's workers live
     * under. Groups of hosts that are gone are removed first.
     */
    static Optional<Cgroups> detect(String prefix) {
        String name = prefix + ProcessHandle.current().pid();
        for (String hierarchy : List.of("", "memory", "pids")) {
            removeLeftovers(hierarchy.isEmpty() ? ROOT : ROOT.resolve(hierarchy), prefix);
        }
        try {
            if (Files.isRegularFile(ROOT.resolve("cgroup.controllers"))) {
                String controllers = Files.readString(ROOT.resolve("cgroup.controllers"));
                if (!controllers.contains("memory") || !controllers.contains("pids")) {
                    return Optional.empty();
                }
                Files.writeString(ROOT.resolve("cgroup.subtree_control"), "+memory +pids");
                Path base = Files.createDirectories(ROOT.resolve(name));
                Files.writeString(base.resolve("cgroup.subtree_control"), "+memory +pids");
                return Optional.of(new Cgroups(true, base, base));
            }
            Path memory = ROOT.resolve("memory");
            Path pids = ROOT.resolve("pids");
            if (Files.isRegularFile(memory.resolve("cgroup.procs"))
                    && Files.isRegularFile(pids.resolve("cgroup.procs"))) {
                return Optional.of(new Cgroups(false, Files.createDirectories(memory.resolve(name)),
                        Files.createDirectories(pids.resolve(name))));
            }
        } catch (IOException | RuntimeException e) {
            // not allowed here (not root, no delegation, read-only cgroupfs): no caps
        }
        return Optional.empty();
    }

    /** Groups {@code prefix<pid>} whose host is gone: their leftover tasks are killed, the groups removed. */
    private static void removeLeftovers(Path hierarchy, String prefix) {
        try (var groups = Files.list(hierarchy)) {
            for (Path base : groups.filter(g -> g.getFileName().toString().startsWith(prefix)).toList()) {
                String pid = base.getFileName().toString().substring(prefix.length());
                if (!pid.matches("\\d{1,10}") || ProcessHandle.of(Long.parseLong(pid)).isPresent()) {
                    continue;
                }
                try (var workers = Files.list(base)) {
                    for (Path worker : workers.filter(Files::isDirectory).toList()) {
                        for (String task : Files.readAllLines(worker.resolve("cgroup.procs"))) {
                            ProcessHandle.of(Long.parseLong(task.trim())).ifPresent(ProcessHandle::destroyForcibly);
                        }
                        delete(worker);
                    }
                }
                delete(base);
            }
        } catch (IOException | RuntimeException e) {
            // not ours to tidy, or not there
        }
    }

    String describe() {
        return v2 ? "cgroup v2" : "cgroup v1";
    }

    /** A group for one worker, capped at {@code memoryBytes} and {@code tasks}. */
    Group create(String worker, long memoryBytes, int tasks) throws IOException {
        Path memory = Files.createDirectories(memoryBase.resolve(worker));
        Path pids = v2 ? memory : Files.createDirectories(pidsBase.resolve(worker));
        if (v2) {
            Files.writeString(memory.resolve("memory.max"), Long.toString(memoryBytes));
            Files.writeString(memory.resolve("memory.swap.max"), "0");
        } else {
            Files.writeString(memory.resolve("memory.limit_in_bytes"), Long.toString(memoryBytes));
        }
        Files.writeString(pids.resolve("pids.max"), Integer.toString(tasks));
        return new Group(v2, memory, pids);
    }

    /** Removes the host's base groups (after every worker group is gone). */
    void close() {
        delete(memoryBase);
        if (!v2) {
            delete(pidsBase);
        }
    }

    private static void delete(Path group) {
        try {
            Files.deleteIfExists(group); // rmdir on cgroupfs; fails while processes are in it
        } catch (IOException ignored) {
            // still in use (a worker that is being killed): the next start of the host reuses it
        }
    }

    /** One worker's group. */
    static final class Group {
        private final boolean v2;
        private final Path memory;
        private final Path pids;

        private Group(boolean v2, Path memory, Path pids) {
            this.v2 = v2;
            this.memory = memory;
            this.pids = pids;
        }

        /** The files a process writes its pid into to join (both hierarchies on v1). */
        List<Path> procsFiles() {
            return v2 ? List.of(memory.resolve("cgroup.procs"))
                    : List.of(memory.resolve("cgroup.procs"), pids.resolve("cgroup.procs"));
        }

        /** How often the kernel's OOM killer killed in this group. */
        long oomKills() {
            return counter(v2 ? memory.resolve("memory.events") : memory.resolve("memory.oom_control"), "oom_kill");
        }

        /** How often a fork or thread creation was refused by the task cap. */
        long taskLimitHits() {
            return counter(pids.resolve("pids.events"), "max");
        }

        void delete() {
            Cgroups.delete(memory);
            if (!v2) {
                Cgroups.delete(pids);
            }
        }

        private static long counter(Path file, String key) {
            try {
                for (String line : Files.readAllLines(file)) {
                    String[] parts = line.trim().split("\\s+");
                    if (parts.length == 2 && parts[0].equals(key)) {
                        return Long.parseLong(parts[1]);
                    }
                }
            } catch (IOException | RuntimeException ignored) {
                // group gone or no such counter on this kernel
            }
            return 0;
        }
    }
}
