package org.medjava.store.net.dimse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The tunnel's check that a loopback connection is this process's own, against a connection of another process. */
class ProcfsTest {

    @Test
    void aConnectionOfThisProcessIsItsOwnAndAnotherProcesssIsNot() throws Exception {
        assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "Linux's /proc");
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (Socket mine = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                 Socket accepted = server.accept()) {
                assertThat(TlsTunnel.ownConnection(accepted)).isTrue();
            }
            Process other = new ProcessBuilder("bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/" + server.getLocalPort()
                    + "; sleep 10").start();
            try (Socket accepted = server.accept()) {
                assertThat(TlsTunnel.ownConnection(accepted)).as("bash's connection").isFalse();
            } finally {
                other.destroyForcibly();
            }
        }
    }
}
