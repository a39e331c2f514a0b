package org.medjava.store.net.dimse;

import com.pixelmed.network.AReleaseException;
import com.pixelmed.network.Association;
import com.pixelmed.network.AssociationFactory;
import com.pixelmed.network.DicomNetworkException;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.audit.Caller;

/**
 * One association, from the A-ASSOCIATE-RQ to its release or abort, on its own thread: requests are received one at
 * a time and answered by the services. Whatever a request leaves behind (a half-received C-STORE) is discarded when
 * the association ends early, so nothing partial becomes visible. The release is answered by {@link AcceptorRelease}.
 */
final class AssociationSession implements Runnable {

    private static final Logger LOG = Logger.getLogger(AssociationSession.class.getName());

    private final Socket socket;
    private final AssociationRequest rq;
    private final DimseServices services;
    private final Runnable released;
    private final Caller caller;

    /**
     * {@code released} is run once the association is over, before the A-RELEASE-RP is sent; {@code caller} is the
     * association's (calling AE title and address), handed to every request on it.
     */
    AssociationSession(Socket socket, AssociationRequest rq, DimseServices services, Runnable released,
                       Caller caller) {
        this.socket = socket;
        this.rq = rq;
        this.services = services;
        this.released = released;
        this.caller = caller;
    }

    /** The type of the peer's next PDU; a connection lost meanwhile ends the association as PixelMed would. */
    private static int nextPduType(ReplaySocket replay) throws IOException, DicomNetworkException {
        try {
            return replay.nextPduType();
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            throw new DicomNetworkException("the connection was lost: " + e.getMessage());
        }
    }

    @Override
    public void run() {
        String peer = rq.callingAe() + " (" + socket.getInetAddress().getHostAddress() + ")";
        int stored = 0;
        int requests = 0;
        try (Socket s = socket) {
            ReplaySocket replay = new ReplaySocket(s, rq.pdu());
            Association association = AssociationFactory.createNewAssociation(replay,
                    services.aeTitle(), services.maxPduLength(), 0, 0, new PresentationPolicy());
            while (true) {
                int next = nextPduType(replay);
                if (next == AcceptorRelease.A_RELEASE_RQ) {
                    try {
                        AcceptorRelease.answer(replay, released);
                    } catch (IOException e) {
                        throw new DicomNetworkException("the release failed: " + e.getMessage());
                    }
                    break;
                }
                if (next < 0) {
                    LOG.log(Level.INFO, "association from {0} closed by the peer without a release after {1}"
                            + " requests ({2} stored)", new Object[] {peer, requests, stored});
                    return;
                }
                RequestReceiver receiver = new RequestReceiver(services.staging());
                association.setReceivedDataHandler(receiver);
                try {
                    association.waitForPDataPDUsUntilHandlerReportsDone();
                    Exchange x = new Exchange(association, receiver.request(), receiver, caller);
                    requests++;
                    if (services.handle(x)) {
                        stored++;
                    }
                } catch (AReleaseException e) {
                    break; // released by PixelMed (a release where the next message should have been)
                } finally {
                    receiver.discard();
                }
            }
            LOG.log(Level.INFO, "association from {0} released: {1} requests, {2} objects stored",
                    new Object[] {peer, requests, stored});
        } catch (SocketTimeoutException e) {
            LOG.log(Level.INFO, "association from {0} closed: idle longer than the timeout after {1} requests ({2}"
                    + " stored)", new Object[] {peer, requests, stored});
        } catch (DicomNetworkException e) {
            LOG.log(Level.INFO, "association from {0} ended after {1} requests ({2} stored): {3}",
                    new Object[] {peer, requests, stored, e.getMessage()});
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "association from " + peer + " failed", e);
        }
    }
}
