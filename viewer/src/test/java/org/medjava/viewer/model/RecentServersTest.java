package org.medjava.viewer.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecentServersTest {

    @Test
    void remembersNewestFirstWithoutDuplicatesOrPasswords(@TempDir Path dir) throws IOException {
        RecentServers recent = new RecentServers(dir.resolve("viewer.properties"));
        assertThat(recent.list()).isEmpty();
        recent.remember(new RecentServers.Server("http://a:8080", "alice"));
        recent.remember(new RecentServers.Server("http://b:8080", "bob"));
        recent.remember(new RecentServers.Server("http://a:8080", "admin"));
        assertThat(recent.list()).containsExactly(new RecentServers.Server("http://a:8080", "admin"),
                new RecentServers.Server("http://b:8080", "bob"));
        assertThat(Files.readAllLines(dir.resolve("viewer.properties"))).filteredOn(l -> !l.startsWith("#"))
                .noneMatch(l -> l.toLowerCase(java.util.Locale.ROOT).contains("pass"));
    }

    @Test
    void keepsAtMostEight(@TempDir Path dir) throws IOException {
        RecentServers recent = new RecentServers(dir.resolve("viewer.properties"));
        for (int i = 0; i < 12; i++) {
            recent.remember(new RecentServers.Server("http://host" + i, "u"));
        }
        assertThat(recent.list()).hasSize(RecentServers.MAX).first().extracting(RecentServers.Server::url)
                .isEqualTo("http://host11");
    }
}
