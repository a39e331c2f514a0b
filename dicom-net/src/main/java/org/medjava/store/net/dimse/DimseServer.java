package org.medjava.store.net.dimse;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLSocket;
import org.medjava.store.core.audit.AuditEvents;
import org.medjava.store.core.audit.AuditTrail;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.metrics.StoreMetrics;
import org.medjava.store.core.query.ArchiveSearch;

/**
 * The store's DICOM network service (DIMSE SCP on PixelMed's association layer): C-ECHO, C-STORE, C-FIND, C-MOVE,
 * C-GET. Listens on the configured port, and with DICOM TLS on also on the TLS port (the same AE title, services,
 * peers and association limit: only the socket differs); each association runs on its own thread. Before PixelMed
 * accepts an association, the calling AE title (and its host, where configured) is checked against the allowed peers,
 * and the called AE title against the store's: strangers get an A-ASSOCIATE-RJ with the reason PS3.8 defines.
 * {@link #close()} stops listening and ends the associations in progress (their partial objects are discarded).
 */
public final class DimseServer implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DimseServer.class.getName());
    /** How long a new connection may take to send its A-ASSOCIATE-RQ. */
    private static final int REQUEST_TIMEOUT_MILLIS = 30_000;
    /** The door the audit of reads names for queries and retrieves over DIMSE. */
    static final String DOOR = "dimse";

    private final DimseSettings settings;
    private final DimseServices services;
    private final StoreMetrics metrics;
    private final ServerSocket server;
    /** The DICOM TLS listener; null when TLS is off. */
    private final ServerSocket tlsServer;
    private final ExecutorService workers;
    /** The connections, to end them on {@link #close()}. */
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    /** The connections whose association is not released yet: what the limit counts. */
    private final Set<Socket> unreleased = ConcurrentHashMap.newKeySet();
    private final AtomicInteger threads = new AtomicInteger();
    private final List<Thread> acceptors = new ArrayList<>();
    private final AuditTrail audit;
    private volatile boolean closed;

    private DimseServer(DimseSettings settings, DimseServices services, StoreMetrics metrics, AuditTrail audit)
            throws IOException {
        this.settings = settings;
        this.services = services;
        this.metrics = metrics;
        this.audit = audit;
        this.server = listen(new ServerSocket(), settings.port(), "medjava.dicom.port");
        try {
            this.tlsServer = settings.tls() == null ? null
                    : listen(settings.tls().serverSocket(), settings.tlsPort(), "medjava.dicom.tls-port");
        } catch (IOException e) {
            server.close();
            throw e;
        }
        // The application's class loader as context loader: the image decoders (ImageIO plugins in the WAR) are
        // looked up through it when C-STORE validation decodes pixel data.
        ClassLoader application = DimseServer.class.getClassLoader();
        this.workers = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "dimse-" + threads.incrementAndGet());
            t.setDaemon(true);
            t.setContextClassLoader(application);
            return t;
        });
        for (ServerSocket listener : tlsServer == null ? List.of(server) : List.of(server, tlsServer)) {
            Thread acceptor = new Thread(() -> acceptLoop(listener), "dimse-acceptor-" + listener.getLocalPort());
            acceptor.setDaemon(true);
            acceptors.add(acceptor);
        }
    }

    private ServerSocket listen(ServerSocket socket, int port, String key) throws IOException {
        socket.setReuseAddress(true);
        try {
            socket.bind(new InetSocketAddress(InetAddress.getByName(settings.bindAddress()), port), 64);
        } catch (IOException e) {
            socket.close();
            throw new IOException("cannot listen for DICOM on " + settings.bindAddress() + ":" + port
                    + " (" + e.getMessage() + "); set " + key + " to a free port", e);
        }
        return socket;
    }

    /** Binds the port and starts accepting associations; C-FIND, C-GET and C-MOVE are counted by {@code reads}. */
    public static DimseServer start(DimseSettings settings, Ingest ingest, ArchiveSearch search,
            DicomIndex index, ImageRepository images, ReadAudit reads) throws IOException {
        DimseServices services = new DimseServices(settings, ingest::newStagingFile, new StoreScp(ingest),
                new FindScp(search, new StoredHeaders(search, index), settings.aeTitle(), reads,
                        settings::visibility),
                new RetrieveScp(search, images, settings.aeTitle(), settings.moveDestinations(),
                        ingest.auditTrail(), reads, settings::visibility));
        DimseServer server = new DimseServer(settings, services, ingest.metrics(), ingest.auditTrail());
        server.acceptors.forEach(Thread::start);
        LOG.log(Level.INFO, "DICOM service {0} listening on {1}:{2,number,#}{3}; allowed calling AE titles: {4}",
                new Object[] {settings.aeTitle(), settings.bindAddress(), server.port(), server.tlsPort()
                        .map(p -> String.format(" and with TLS (client certificates: %s) on %d",
                                settings.tls().clientAuth().name().toLowerCase(java.util.Locale.ROOT), p))
                        .orElse(""),
                        settings.allowedPeers().isEmpty() ? "none (set medjava.dicom.allowed-aets)"
                                : settings.allowedPeers().peers().keySet()});
        return server;
    }

    public int port() {
        return server.getLocalPort();
    }

    /** The port of the DICOM TLS listener, when there is one. */
    public Optional<Integer> tlsPort() {
        return tlsServer == null ? Optional.empty() : Optional.of(tlsServer.getLocalPort());
    }

    public DimseSettings settings() {
        return settings;
    }

    private void acceptLoop(ServerSocket listener) {
        while (!closed) {
            try {
                Socket socket = listener.accept();
                open.add(socket);
                unreleased.add(socket);
                workers.execute(() -> serve(socket));
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(Level.WARNING, "accepting a DICOM connection failed", e);
                }
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "the DICOM service cannot take another connection", e);
            }
        }
    }

    /**
     * Checks who is calling, then runs the association with the caller bound for the audit trail (what it stores is
     * recorded as sent by that AE); always closes the socket. Accepted and refused associations are audited as
     * logins of the calling AE.
     */
    private void serve(Socket socket) {
        try {
            socket.setSoTimeout(REQUEST_TIMEOUT_MILLIS);
            socket.setTcpNoDelay(true);
            if (socket instanceof SSLSocket tls && !handshake(tls)) {
                return;
            }
            AssociationRequest rq = AssociationRequest.read(socket.getInputStream());
            Caller caller = Caller.dicom(rq.callingAe(), socket.getInetAddress().getHostAddress());
            Optional<AssociationRequest.Rejection> rejection = check(rq, socket);
            metrics.association(rejection.isEmpty());
            if (rejection.isPresent()) {
                String why = rejection.get().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
                audit.record(AuditEvents.login(caller, false, "association refused: " + why + " (called "
                        + rq.calledAe() + ")"));
                unreleased.remove(socket); // no longer counted once refused: the caller may retry at once
                AssociationRequest.reject(socket.getOutputStream(), rejection.get());
                return;
            }
            audit.record(AuditEvents.login(caller, true, null));
            socket.setSoTimeout(settings.idleTimeoutMillis());
            new AssociationSession(socket, rq, services, () -> unreleased.remove(socket), caller).run();
        } catch (SocketTimeoutException e) {
            LOG.log(Level.FINE, "a DICOM connection sent no association request in time");
        } catch (IOException e) {
            LOG.log(Level.FINE, "a DICOM connection failed before its association: {0}", e.getMessage());
        } finally {
            unreleased.remove(socket);
            open.remove(socket);
            try {
                socket.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }

    /**
     * The TLS handshake, before anything DICOM is read: a caller that cannot complete it (a plain DICOM client, no
     * common protocol or suite, no or an untrusted client certificate) is told so by TLS and logged with its
     * address; the connection is closed and the listener goes on.
     */
    private static boolean handshake(SSLSocket socket) throws IOException {
        try {
            socket.startHandshake();
            return true;
        } catch (SSLException e) {
            LOG.log(Level.INFO, "DICOM TLS handshake with {0} failed: {1}",
                    new Object[] {socket.getInetAddress().getHostAddress(), e.getMessage()});
            return false;
        }
    }

    private Optional<AssociationRequest.Rejection> check(AssociationRequest rq, Socket socket) {
        String from = rq.callingAe() + " (" + socket.getInetAddress().getHostAddress() + ")";
        if (!rq.calledAe().equals(settings.aeTitle())) {
            LOG.log(Level.INFO, "association from {0} refused: it called {1}, the store is {2}",
                    new Object[] {from, rq.calledAe(), settings.aeTitle()});
            return Optional.of(AssociationRequest.Rejection.CALLED_AE_NOT_RECOGNIZED);
        }
        Optional<String> refusal = settings.allowedPeers().refusal(rq.callingAe(), socket.getInetAddress());
        if (refusal.isPresent()) {
            LOG.log(Level.INFO, "association from {0} refused: {1}", new Object[] {from, refusal.get()});
            return Optional.of(AssociationRequest.Rejection.CALLING_AE_NOT_RECOGNIZED);
        }
        if (unreleased.size() > settings.maxAssociations()) { // this connection is one of them
            LOG.log(Level.INFO, "association from {0} refused: {1} associations are open already",
                    new Object[] {from, settings.maxAssociations()});
            return Optional.of(AssociationRequest.Rejection.LOCAL_LIMIT_EXCEEDED);
        }
        return Optional.empty();
    }

    /** Stops listening, ends the associations in progress and waits briefly for their threads. */
    @Override
    public void close() {
        closed = true;
        for (ServerSocket listener : tlsServer == null ? List.of(server) : List.of(server, tlsServer)) {
            try {
                listener.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
        workers.shutdownNow();
        try {
            if (!workers.awaitTermination(10, TimeUnit.SECONDS)) {
                LOG.warning("DICOM association threads still running after 10 s");
            }
            for (Thread acceptor : acceptors) {
                acceptor.join(5000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.log(Level.INFO, "DICOM service on port {0,number,#} stopped", settings.port());
    }
}
