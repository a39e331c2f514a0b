package org.medjava.bench.ipc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** CPU pinning of a child process with {@code taskset} (util-linux), where it exists. */
final class Pinning {
    private static final Path TASKSET = Path.of("/usr/bin/taskset");

    private Pinning() {
    }

    static boolean available() {
        return Files.isExecutable(TASKSET);
    }

    /** The command, run on {@code cpu} when {@code pin} is set. */
    static List<String> on(boolean pin, int cpu, List<String> command) {
        List<String> all = new ArrayList<>();
        if (pin) {
            all.add(TASKSET.toString());
            all.add("-c");
            all.add(Integer.toString(cpu));
        }
        all.addAll(command);
        return all;
    }
}
