package org.medjava.store.web;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Instant;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.glassfish.grizzly.http.Method;
import org.glassfish.grizzly.http.Protocol;
import org.glassfish.grizzly.http.server.HttpHandler;
import org.glassfish.grizzly.http.server.Request;
import org.glassfish.grizzly.http.server.RequestExecutorProvider;
import org.glassfish.grizzly.http.server.Response;
import org.medjava.store.config.StoreConfig;
import org.medjava.store.logging.AccessLog;
import org.medjava.store.monitoring.RegistryMetrics;
import org.medjava.store.repo.ImageRepository;
import org.medjava.store.repo.StoredFile;
import org.medjava.store.security.ReadAuthentication;
import org.medjava.store.security.StoreAuthenticationMechanism;

/**
 * The store's direct read path: a plain GET or HEAD of a stored file under {@code /images/} answered on Grizzly, in
 * front of Payara's servlet container, whose pipeline (Catalina valves, the authentication valve with its JACC
 * permission checks, the filter chain) was about half of the CPU of a 39 KB download (profile in
 * docs/performance.md). It decides what the container's path would: the Host check ({@link HostCheck}), the caller
 * ({@link ReadAuthentication}), the file ({@link FileDownloadFilter#storedFile}) and the answer
 * ({@link FileDownload}: validators, conditional requests, ranges), and writes the same access log line and request
 * metrics. Every request it cannot answer exactly as the container's path would — another method or path, a query,
 * a ';', an {@code Origin}, a session, a login to check, a refusal to give, a missing file, storage that fails before
 * the answer starts — goes on, untouched, to the container ({@link #container}), which decides it in full.
 *
 * <p>Before any of that, every request's address is checked ({@link RequestPathCheck}): one the container could not
 * decode is refused here with 400 and its reason.
 *
 * <p>Installed by {@link HttpFrontInstaller} as the Grizzly handler of Payara's HTTP listeners, wrapping the one
 * that was there.
 */
final class DirectReads extends HttpHandler {
    private static final Logger LOG = Logger.getLogger(DirectReads.class.getName());
    /** The largest response buffer: a file up to this size is written in one piece. */
    private static final int MAX_BUFFER = 256 * 1024;

    /** Payara's handler: maps the request to the web container (or another endpoint). */
    final HttpHandler container;
    private final String contextPath;
    private final boolean trustForwarded;
    /** medjava.http.direct-reads: when false, only the address check is made here */
    private final boolean serveFiles;
    private final HostCheck hosts;
    private final ReadAuthentication callers;
    private final ImageRepository images;
    private final AccessLog accessLog;
    private final RegistryMetrics metrics;

    DirectReads(HttpHandler container, String contextPath, StoreConfig config, ReadAuthentication callers,
                ImageRepository images, AccessLog accessLog, RegistryMetrics metrics) {
        super("medjava-direct-reads");
        this.container = container;
        this.contextPath = contextPath;
        this.trustForwarded = config.trustForwarded(); // read once: the configuration does not change while running
        this.serveFiles = config.directReads();
        this.hosts = new HostCheck(config);
        this.callers = callers;
        this.images = images;
        this.accessLog = accessLog;
        this.metrics = metrics;
        // the request's URI is prepared (decoded, its charset) with these before service(): keep the container's
        setAllowEncodedSlash(container.isAllowEncodedSlash());
        setRequestURIEncoding(container.getRequestURIEncoding());
        setAllowCustomStatusMessage(container.isAllowCustomStatusMessage());
    }

    /** The requests run where the container runs them (its worker threads). */
    @Override
    public RequestExecutorProvider getRequestExecutorProvider() {
        return container.getRequestExecutorProvider();
    }

    @Override
    public void service(Request request, Response response) throws Exception {
        if (!refusedPath(request, response) && !answered(request, response)) {
            container.service(request, response);
        }
    }

    /**
     * Refuses, for every method and path, an address the container cannot decode ({@link RequestPathCheck}): 400 with
     * the reason and its access log line, before the container would fail on it.
     */
    private boolean refusedPath(Request request, Response response) throws IOException {
        long start = System.nanoTime();
        String problem = RequestPathCheck.problem(request.getRequestURI());
        if (problem == null) {
            return false;
        }
        byte[] body = ErrorBody.json(400, problem).getBytes(java.nio.charset.StandardCharsets.UTF_8);
        response.setStatus(400);
        response.setHeader("Server", RequestGuardFilter.SERVER);
        RequestGuardFilter.securityHeaders(request.isSecure(), response::setHeader);
        if (request.getContentLengthLong() != 0) { // a body we will not read: the connection cannot be reused
            response.setHeader("Connection", "close");
        }
        response.setContentType("application/json");
        response.setContentLength(body.length);
        boolean head = request.getMethod() == Method.HEAD;
        if (!head) {
            response.getOutputStream().write(body);
        }
        String address = PublicBase.clientAddress(trustForwarded, request.getRemoteAddr(), request::getHeader);
        long nanos = System.nanoTime() - start;
        String method = request.getMethod().getMethodString();
        accessLog.record(Instant.now(), address, null, method, request.getRequestURI(), request.getQueryString(), 400,
                head ? 0 : body.length, nanos / 1_000_000);
        metrics.request(method, "unmatched", 400, nanos);
        return true;
    }

    /** Answers a plain read, or says no with nothing written. */
    private boolean answered(Request request, Response response) throws IOException {
        long start = System.nanoTime();
        Method method = request.getMethod();
        if (!serveFiles || method != Method.GET && method != Method.HEAD || request.getQueryString() != null) {
            return false;
        }
        String uri = request.getRequestURI();
        if (!uri.startsWith(contextPath) || uri.indexOf(';') >= 0 || request.isRequestedSessionIdFromURL()
                || request.getHeader("Origin") != null
                || !hosts.accepts(request.getHeader("Host"), request.getLocalAddr())) {
            return false;
        }
        String path = uri.substring(contextPath.length());
        if (!path.startsWith("/images/")) {
            return false;
        }
        String address = PublicBase.clientAddress(trustForwarded, request.getRemoteAddr(), request::getHeader);
        StoreAuthenticationMechanism.Verdict caller = callers.caller(request.getHeader("Authorization"),
                request.getHeader("Cookie"), address);
        if (caller == null) {
            return false;
        }
        StoredFile file = FileDownloadFilter.storedFile(images, path);
        if (file == null) {
            return false;
        }
        GrizzlyExchange exchange = new GrizzlyExchange(request, response);
        response.setHeader("Server", RequestGuardFilter.SERVER);
        RequestGuardFilter.securityHeaders(request.isSecure(), response::setHeader);
        if (request.getProtocol() != Protocol.HTTP_2_0) { // as the container does (it leaves it out on HTTP/2)
            response.setHeader("X-Frame-Options", "SAMEORIGIN");
        }
        try {
            FileDownload.send(exchange, FileDownloadFilter.entity(images, file));
        } catch (IOException | RuntimeException e) {
            if (!response.isCommitted()) { // storage failed before the answer began: the container answers it
                LOG.log(Level.FINE, "a direct read goes to the container after: {0}", e.toString());
                response.reset();
                return false;
            }
            exchange.status = 500;
            log(request, caller, address, exchange, start);
            throw e;
        }
        log(request, caller, address, exchange, start);
        return true;
    }

    private void log(Request request, StoreAuthenticationMechanism.Verdict caller, String address,
                     GrizzlyExchange exchange, long start) {
        long nanos = System.nanoTime() - start;
        String method = request.getMethod().getMethodString();
        accessLog.record(Instant.now(), address, caller.caller(), method, request.getRequestURI(), null,
                exchange.status, exchange.bytes(), nanos / 1_000_000);
        metrics.request(method, FileDownloadFilter.ENDPOINT, exchange.status, nanos);
        metrics.directRead();
    }

    /** Grizzly's request and response as {@link FileDownload} reads and writes them, counting the body's bytes. */
    private static final class GrizzlyExchange implements FileDownload.Exchange {
        private final Request request;
        private final Response response;
        private int status = 200;
        private CountingStream body;

        GrizzlyExchange(Request request, Response response) {
            this.request = request;
            this.response = response;
        }

        @Override
        public String method() {
            return request.getMethod().getMethodString();
        }

        @Override
        public String header(String name) {
            return request.getHeader(name);
        }

        @Override
        public void status(int status) {
            this.status = status;
            response.setStatus(status);
        }

        @Override
        public void header(String name, String value) {
            response.setHeader(name, value);
        }

        @Override
        public void contentType(String type) {
            response.setContentType(type);
        }

        @Override
        public void contentLength(long length) {
            response.setContentLengthLong(length);
            // a small file goes out with its headers in one write, not in 8 KiB pieces through the filter chain
            response.setBufferSize((int) Math.min(length, MAX_BUFFER));
        }

        @Override
        public OutputStream body() {
            if (body == null) {
                body = new CountingStream(response.getOutputStream());
            }
            return body;
        }

        long bytes() {
            return body == null ? 0 : body.count;
        }
    }

    private static final class CountingStream extends FilterOutputStream {
        long count;

        CountingStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }
    }
}
