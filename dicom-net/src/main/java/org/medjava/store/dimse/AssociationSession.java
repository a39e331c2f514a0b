package org.medjava.store.dimse;

import com.pixelmed.network.AReleaseException;
import com.pixelmed.network.Association;
import com.pixelmed.network.AssociationFactory;
import com.pixelmed.network.DicomNetworkException;
import java.io.IOException;
import java.net.Socket;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One association, from the A-ASSOCIATE-RQ to its release or abort, on its own thread: requests are received one at
 * a time and answered by the services. Whatever a request leaves behind (a half-received C-STORE) is discarded when
 * the association ends early, so nothing partial becomes visible.
 */
final class AssociationSession implements Runnable {

    private static final Logger LOG = Logger.getLogger(AssociationSession.class.getName());

    private final Socket socket;
    private final AssociationRequest rq;
    private final DimseServices services;

    AssociationSession(Socket socket, AssociationRequest rq, DimseServices services) {
        this.socket = socket;
        this.rq = rq;
        this.services = services;
    }

    @Override
    public void run() {
        String peer = rq.callingAe() + " (" + socket.getInetAddress().getHostAddress() + ")";
        int stored = 0;
        int requests = 0;
        try (Socket s = socket) {
            Association association = AssociationFactory.createNewAssociation(new ReplaySocket(s, rq.pdu()),
                    services.aeTitle(), services.maxPduLength(), 0, 0, new PresentationPolicy());
            while (true) {
                RequestReceiver receiver = new RequestReceiver(services.staging());
                association.setReceivedDataHandler(receiver);
                try {
                    association.waitForPDataPDUsUntilHandlerReportsDone();
                    Exchange x = new Exchange(association, receiver.request(), receiver);
                    requests++;
                    if (services.handle(x)) {
                        stored++;
                    }
                } catch (AReleaseException e) {
                    break; // released: the normal end
                } finally {
                    receiver.discard();
                }
            }
            LOG.log(Level.INFO, "association from {0} released: {1} requests, {2} objects stored",
                    new Object[] {peer, requests, stored});
        } catch (DicomNetworkException e) {
            LOG.log(Level.INFO, "association from {0} ended after {1} requests ({2} stored): {3}",
                    new Object[] {peer, requests, stored, e.getMessage()});
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "association from " + peer + " failed", e);
        }
    }
}
