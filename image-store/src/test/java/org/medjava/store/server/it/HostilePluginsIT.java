package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.filter.testkit.HostilePlugins;
import org.medjava.filter.testkit.HostilePlugins.Attack;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Hostile plugins installed on a real store as an administrator's mistake would (signed by a trusted publisher):
 * each is contained by the filter workers. The store keeps serving reads and renders during and after every attack,
 * each render with the hostile filter is refused naming the plugin and what stopped it, nothing of the store's is
 * read or written, and the store's own threads and memory are as they were.
 */
@ExtendWith(SharedStore.class)
class HostilePluginsIT {
    static StoreClient admin;
    static PayaraStore store;

    @BeforeAll
    static void connect() throws Exception {
        store = SharedStore.store();
        admin = StoreClient.admin(store);
        admin.put("/images/it/hostile/ct.gif", Samples.bytes(Samples.gif("ct-small.gif")));
        assertThat(admin.getJson("/health/ready").body()).contains("pluginIsolation", "workers", "bubblewrap");
    }

    @Test
    void everyAttackIsContainedWhileTheStoreGoesOnServing(@TempDir Path dir) throws Exception {
        Path secret = Files.writeString(store.dataDir().resolve("hostile-it-secret.txt"), "not for plugins");
        Path written = store.dataDir().resolve("hostile-it-written.txt");
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger served = new AtomicInteger();
        AtomicReference<String> failed = new AtomicReference<>();
        Thread reader = new Thread(() -> { // a radiologist reading meanwhile
            while (running.get()) {
                try {
                    for (String path : List.of("/images/it/hostile/ct.gif",
                            "/images/it/hostile/ct.gif?render=png&filter=blur")) {
                        HttpResponse<byte[]> r = admin.get(path);
                        if (r.statusCode() != 200) {
                            failed.compareAndSet(null, path + " answered " + r.statusCode());
                        }
                        served.incrementAndGet();
                    }
                } catch (Exception e) {
                    failed.compareAndSet(null, e.toString());
                }
            }
        }, "reader");
        reader.start();
        Thread.sleep(2000);
        long threadsBefore = storeThreads();
        long rssBefore = storeRssKiB();
        try {
            refusedAtInstall(dir, Attack.EXIT_AT_LOAD, null, "exit status 3");
            for (int call = 1; call <= 3; call++) {
                refusedRender(dir, Attack.EXIT, null, call == 3 ? "quarantined" : "exit status 1", call == 1);
            }
            assertThat(render(Attack.EXIT).statusCode()).isEqualTo(409); // quarantined: FAILED until reloaded
            remove(Attack.EXIT);
            refusedRender(dir, Attack.READ_FILE, secret.toString(), "NoSuchFileException", true);
            remove(Attack.READ_FILE);
            refusedRender(dir, Attack.READ_FILE, "/etc/passwd", "NoSuchFileException", true);
            remove(Attack.READ_FILE);
            refusedRender(dir, Attack.WRITE_FILE, written.toString(), "NoSuchFileException", true);
            assertThat(written).doesNotExist();
            remove(Attack.WRITE_FILE);
            refusedRender(dir, Attack.EXEC, null, "Cannot run program", true);
            remove(Attack.EXEC);
            refusedRender(dir, Attack.CONNECT, "127.0.0.1:" + store.port(), "Connect", true);
            remove(Attack.CONNECT);
            refusedRender(dir, Attack.THREAD_BOMB, null, "threads", true);
            remove(Attack.THREAD_BOMB);
            refusedRender(dir, Attack.MEMORY_BOMB, null, "MiB", true);
            remove(Attack.MEMORY_BOMB);
            refusedRender(dir, Attack.INFINITE_LOOP, null, "did not finish", true);
            remove(Attack.INFINITE_LOOP);
            Path library = Path.of(System.getProperty("java.home"), "lib", "libzip.so");
            refusedRender(dir, Attack.NATIVE_LOAD, library.toString(), "NoSuchFileException", true);
            remove(Attack.NATIVE_LOAD);
            Thread.sleep(2000); // the reader goes on after the last attack
        } finally {
            running.set(false);
            reader.join(30_000);
        }
        assertThat(failed.get()).as("a read or render failed during the attacks").isNull();
        assertThat(served.get()).isGreaterThan(20);
        assertThat(storeThreads()).as("the store's threads").isLessThan(threadsBefore + 20);
        assertThat(storeRssKiB()).as("the store's resident memory, KiB").isLessThan(rssBefore + 256 * 1024);
        assertThat(admin.getJson("/health/ready").statusCode()).isEqualTo(200);
    }

    private static void refusedAtInstall(Path dir, Attack attack, String target, String why) throws Exception {
        Path jar = HostilePlugins.build(dir.resolve(attack + ".jar"), attack, target);
        HttpResponse<String> r = admin.put("/filters/" + HostilePlugins.id(attack) + ".jar", jar);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
        assertThat(r.body()).contains(HostilePlugins.id(attack), why);
    }

    private static void refusedRender(Path dir, Attack attack, String target, String why, boolean install)
            throws Exception {
        if (install) {
            Path jar = HostilePlugins.build(dir.resolve(attack + "-" + System.nanoTime() + ".jar"), attack, target);
            HttpResponse<String> r = admin.put("/filters/" + HostilePlugins.id(attack) + ".jar", jar);
            assertThat(r.statusCode()).as(r.body()).isIn(200, 201);
        }
        HttpResponse<byte[]> r = render(attack);
        String body = new String(r.body());
        assertThat(r.statusCode()).as(body).isBetween(400, 599);
        assertThat(body).contains(HostilePlugins.id(attack), why);
    }

    private static HttpResponse<byte[]> render(Attack attack) throws Exception {
        int seconds = attack == Attack.MEMORY_BOMB ? 30 : 2; // filling the worker's heap takes a while
        return admin.get("/images/it/hostile/ct.gif?render=png&timeout=" + seconds + "&filter="
                + HostilePlugins.id(attack));
    }

    private static void remove(Attack attack) throws Exception {
        assertThat(admin.delete("/filters/" + HostilePlugins.id(attack) + ".jar").statusCode()).isEqualTo(204);
    }

    private static long storeThreads() throws Exception {
        return status("Threads:");
    }

    private static long storeRssKiB() throws Exception {
        return status("VmRSS:");
    }

    private static long status(String field) throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(store.process().pid()), "status"))) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
            }
        }
        throw new AssertionError("no " + field + " for the store");
    }
}
