package org.medjava.store.net.dimse;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.SSLSocket;

/**
 * The way an association the store initiates reaches a DICOM TLS peer. PixelMed's initiators open their own plain
 * socket to a host and port (its TLS option is the retired TLS 1.0 profile), so they are pointed at a loopback port
 * this tunnel listens on for one connection, whose bytes it relays to and from a TLS connection with the peer. The
 * TLS handshake is done before PixelMed connects, so a peer that is not trusted fails with the handshake's reason.
 * The tunnel ends, threads and sockets, when either side closes; unused, it gives up after the connect timeout.
 */
final class TlsTunnel {

    private static final Logger LOG = Logger.getLogger(TlsTunnel.class.getName());
    static final int CONNECT_TIMEOUT_MILLIS = 30_000;

    private TlsTunnel() {
    }

    /** Connects to {@code to} over TLS and returns the loopback port that leads there, for one connection. */
    static int open(RemoteAe to) throws IOException {
        SSLSocket remote;
        try {
            remote = to.tls().connect(to.host(), to.port(), CONNECT_TIMEOUT_MILLIS);
        } catch (IOException e) {
            throw new IOException("DICOM TLS with " + to + " failed: " + e.getMessage(), e);
        }
        ServerSocket local = new ServerSocket();
        try {
            local.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            local.setSoTimeout(CONNECT_TIMEOUT_MILLIS);
        } catch (IOException e) {
            local.close();
            remote.close();
            throw e;
        }
        Thread t = new Thread(() -> relay(local, remote, to), "dicom-tls-" + to.aeTitle());
        t.setDaemon(true);
        t.start();
        return local.getLocalPort();
    }

    private static void relay(ServerSocket local, SSLSocket remote, RemoteAe to) {
        Socket client;
        try (ServerSocket listening = local) {
            client = ownAccept(listening, to);
            client.setTcpNoDelay(true);
        } catch (IOException e) {
            LOG.log(Level.FINE, "the TLS tunnel to {0} was not used: {1}", new Object[] {to, e.getMessage()});
            close(remote);
            return;
        }
        Thread back = new Thread(() -> pump(remote, client), "dicom-tls-" + to.aeTitle() + "-in");
        back.setDaemon(true);
        back.start();
        pump(client, remote);
    }

    /** The first connection this process opened (the TLS session is the store's: no other local process gets it). */
    private static Socket ownAccept(ServerSocket listening, RemoteAe to) throws IOException {
        for (;;) {
            Socket client = listening.accept();
            if (ownConnection(client)) {
                return client;
            }
            LOG.warning("a connection to the DICOM TLS tunnel to " + to + " from loopback port " + client.getPort()
                    + " is not this process's own; refused");
            close(client);
        }
    }

    /**
     * Whether the loopback connection {@code accepted} was opened by this process (PixelMed's initiator): on Linux,
     * the kernel's table of TCP sockets names the socket at the connection's other end by inode, and this process's
     * file descriptors hold it. Where /proc cannot say (another system), the connection is taken as it comes.
     */
    static boolean ownConnection(Socket accepted) {
        String inode = Procfs.socketInode(accepted.getPort(), accepted.getLocalPort());
        return inode == null || Procfs.ownsSocket(inode);
    }

    /** Copies until either side ends, then closes both (which ends the other direction too). */
    private static void pump(Socket from, Socket to) {
        byte[] buffer = new byte[64 * 1024];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // the connection ended; both sides are closed below
        } finally {
            close(from);
            close(to);
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // closing anyway
        }
    }
}
