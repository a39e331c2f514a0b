package org.medjava.bench.environment;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The commit is read from the repository's files: plain repository, worktree, packed refs, detached HEAD. */
class GitCommitTest {
    private static final String HASH = "0123456789abcdef0123456789abcdef01234567";

    @Test
    void looseRefInAPlainRepository(@TempDir Path root) throws Exception {
        Path git = Files.createDirectories(root.resolve(".git/refs/heads"));
        Files.writeString(root.resolve(".git/HEAD"), "ref: refs/heads/main\n");
        Files.writeString(git.resolve("main"), HASH + "\n");
        assertThat(GitCommit.of(root)).contains(HASH + " (refs/heads/main)");
    }

    @Test
    void worktreeWithPackedRefs(@TempDir Path dir) throws Exception {
        Path common = Files.createDirectories(dir.resolve("main/.git"));
        Path wtGit = Files.createDirectories(common.resolve("worktrees/wt"));
        Path wt = Files.createDirectories(dir.resolve("wt"));
        Files.writeString(wt.resolve(".git"), "gitdir: " + wtGit + "\n");
        Files.writeString(wtGit.resolve("HEAD"), "ref: refs/heads/feature\n");
        Files.writeString(wtGit.resolve("commondir"), "../..\n");
        Files.writeString(common.resolve("packed-refs"), "# pack-refs\n" + HASH + " refs/heads/feature\n");
        assertThat(GitCommit.of(wt)).contains(HASH + " (refs/heads/feature)");
    }

    @Test
    void detachedHeadAndNoRepository(@TempDir Path root) throws Exception {
        assertThat(GitCommit.of(root)).isEmpty();
        Files.createDirectories(root.resolve(".git"));
        Files.writeString(root.resolve(".git/HEAD"), HASH + "\n");
        assertThat(GitCommit.of(root)).contains(HASH);
    }
}
