package org.medjava.store.server.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.medjava.filter.runtime.CallControl;

/** Real sockets on the loopback: a peer that closes or resets is noticed; one that stays is not. */
class ClientHangupsTest {
    private final ClientHangups hangups = new ClientHangups();

    @AfterEach
    void close() {
        hangups.close();
    }

    @BeforeAll
    static void linuxOnly() {
        assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "the socket table is Linux's");
    }

    @Test
    void aClientThatClosesCancelsAndOneThatStaysDoesNot() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
             Socket leaving = new Socket(server.getInetAddress(), server.getLocalPort());
             Socket leavingAccepted = server.accept();
             Socket staying = new Socket(server.getInetAddress(), server.getLocalPort());
             Socket stayingAccepted = server.accept()) {
            CallControl left = CallControl.unlimited();
            CallControl stayed = CallControl.unlimited();
            try (ClientHangups.Watch a = watch(leavingAccepted, left);
                 ClientHangups.Watch b = watch(stayingAccepted, stayed)) {
                Thread.sleep(500); // seen as established first
                leaving.close();

                awaitCancelled(left);
                assertThat(left.cancelReason()).isEqualTo(ClientHangups.REASON);
                assertThat(stayed.isCancelled()).isFalse();
            }
        }
    }

    @Test
    void aClientThatResetsCancels() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
             Socket client = new Socket(server.getInetAddress(), server.getLocalPort());
             Socket accepted = server.accept()) {
            CallControl control = CallControl.unlimited();
            try (ClientHangups.Watch w = watch(accepted, control)) {
                Thread.sleep(500);
                client.setSoLinger(true, 0); // close with RST: the server's socket leaves the table
                client.close();

                awaitCancelled(control);
            }
        }
    }

    private ClientHangups.Watch watch(Socket serverSide, CallControl control) {
        return hangups.watch(serverSide.getInetAddress().getHostAddress(), serverSide.getPort(),
                serverSide.getLocalPort(), control);
    }

    private static void awaitCancelled(CallControl control) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!control.isCancelled() && System.nanoTime() < until) {
            Thread.sleep(20);
        }
        assertThat(control.isCancelled()).as("cancelled within 5 s").isTrue();
    }
}
