package org.medjava.bench.environment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The checked-out commit, read from the repository's files (no git process): {@code .git} may be a directory or,
 * in a worktree, a file pointing at one; {@code HEAD} is a hash or a ref, loose or packed.
 */
final class GitCommit {
    private GitCommit() {
    }

    static Optional<String> of(Path root) {
        try {
            Path git = root.resolve(".git");
            Path gitDir = git;
            if (Files.isRegularFile(git)) {
                String line = Files.readString(git).trim();
                if (!line.startsWith("gitdir:")) {
                    return Optional.empty();
                }
                gitDir = root.resolve(line.substring("gitdir:".length()).trim()).normalize();
            }
            String head = Files.readString(gitDir.resolve("HEAD")).trim();
            if (!head.startsWith("ref:")) {
                return Optional.of(head);
            }
            String ref = head.substring(4).trim();
            Path common = gitDir;
            Path commonFile = gitDir.resolve("commondir");
            if (Files.isRegularFile(commonFile)) {
                common = gitDir.resolve(Files.readString(commonFile).trim()).normalize();
            }
            for (Path dir : new Path[] {gitDir, common}) {
                Path loose = dir.resolve(ref);
                if (Files.isRegularFile(loose)) {
                    return Optional.of(Files.readString(loose).trim() + " (" + ref + ")");
                }
            }
            Path packed = common.resolve("packed-refs");
            if (Files.isRegularFile(packed)) {
                for (String line : Files.readAllLines(packed)) {
                    if (line.endsWith(" " + ref)) {
                        return Optional.of(line.substring(0, line.indexOf(' ')) + " (" + ref + ")");
                    }
                }
            }
            return Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
