package org.medjava.store.net.dimse;

import com.pixelmed.network.Association;
import com.pixelmed.network.AssociationFactory;
import com.pixelmed.network.DicomNetworkException;
import com.pixelmed.network.PresentationContext;
import com.pixelmed.network.SCUSCPRoleSelection;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.Socket;
import java.util.LinkedList;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Associations the store initiates (C-STORE to a move destination, C-GET, C-MOVE, C-FIND as an SCU), with
 * TCP_NODELAY set on their socket. PixelMed's initiator opens a plain socket with Nagle's algorithm on: a PDU
 * written in two pieces then waits for the peer's delayed ACK, about 40 ms on Linux, once per instance — a C-STORE
 * of a 500-instance series took 20 s more than its bytes need (measured by the benchmark's ingest step: ~48 ms per
 * instance against the store and Orthanc alike). PixelMed keeps the socket in a protected field and has no option
 * for it, so it is reached reflectively once the association is negotiated; if that ever fails, the association
 * works as before, a little slower (one FINE line). A peer marked {@code tls} is reached through a {@link TlsTunnel}.
 */
public final class Initiators {
    private static final Logger LOG = Logger.getLogger(Initiators.class.getName());
    private static final Field SOCKET = socketField();

    private Initiators() {
    }

    /** {@link AssociationFactory#createNewAssociation} with {@code to}, TCP_NODELAY on the association's socket. */
    public static Association open(RemoteAe to, String callingAe, LinkedList<PresentationContext> contexts,
                                   LinkedList<SCUSCPRoleSelection> roles) throws DicomNetworkException, IOException {
        Endpoint at = endpoint(to);
        Association association = AssociationFactory.createNewAssociation(at.host(), at.port(), to.aeTitle(),
                callingAe, contexts, roles, false);
        noDelay(association);
        return association;
    }

    /** Where PixelMed connects to reach {@code to}: the peer itself, or for a TLS peer a tunnel's loopback port. */
    public record Endpoint(String host, int port) {
    }

    /**
     * Where PixelMed's SCUs that open their own association (C-ECHO, C-FIND) connect for {@code to}; for a TLS peer
     * the TLS connection is made here (for that one association), so its failure is an IOException from here.
     */
    public static Endpoint endpoint(RemoteAe to) throws IOException {
        return to.tls() == null ? new Endpoint(to.host(), to.port())
                : new Endpoint(java.net.InetAddress.getLoopbackAddress().getHostAddress(), TlsTunnel.open(to));
    }

    /** Turns Nagle's algorithm off on the association's socket (best effort). */
    static void noDelay(Association association) {
        try {
            if (SOCKET != null && SOCKET.get(association) instanceof Socket socket) {
                socket.setTcpNoDelay(true);
            }
        } catch (IllegalAccessException | IOException | RuntimeException e) {
            LOG.log(Level.FINE, "TCP_NODELAY not set on an association: {0}", e.toString());
        }
    }

    private static Field socketField() {
        try {
            Field field = Association.class.getDeclaredField("socket");
            field.setAccessible(true);
            return field;
        } catch (ReflectiveOperationException | RuntimeException e) {
            LOG.log(Level.FINE, "PixelMed's association socket is not reachable: {0}", e.toString());
            return null;
        }
    }
}
