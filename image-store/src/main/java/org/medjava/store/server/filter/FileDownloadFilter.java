package org.medjava.store.server.filter;

import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.repo.ImageRepository;
import org.medjava.store.core.model.StorePath;
import org.medjava.store.core.model.StoredFile;
import org.medjava.store.server.http.PathParams;
import org.medjava.store.server.http.RequestCaller;

/**
 * The path a viewer feels — hundreds of small GETs per study — answered on the servlet API: a GET or HEAD of a stored
 * file under {@code /images/} is sent here ({@link FileDownload}), after the request guard, access log, header and
 * metrics filters and the authentication mechanism, without the JAX-RS and CDI request machinery, which took about
 * 60% of the CPU of such a request (JFR profile in docs/performance.md). Everything else — directories, renderings
 * ({@code ?render=}), writes, names that do not parse, files that vanish — goes on to {@link org.medjava.store.server.rest.ImagesResource}, which
 * also documents this route and answers its errors.
 */
public class FileDownloadFilter extends HttpFilter {
    private static final long serialVersionUID = 1L;
    private static final String PREFIX = "/images/";
    /** {@link EndpointTemplate}'s name for the route, for the request metrics. */
    public static final String ENDPOINT = "/images/{path}";

    @Inject
    ImageRepository images;

    @Inject
    ReadAudit audit;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        StoredFile file = plainFile(request);
        if (file == null) {
            chain.doFilter(request, response);
            return;
        }
        request.setAttribute(EndpointTemplate.ATTRIBUTE, ENDPOINT);
        FileDownload.send(FileDownload.of(request, response), entity(images, file));
        if ("GET".equals(request.getMethod()) && response.getStatus() / 100 == 2) {
            audit.file(RequestCaller.of(request), DOOR, file.path().relative());
        }
    }

    /** The audit trail's name for the reads the container answers (those the front leaves to it). */
    static final String DOOR = "http";

    /** The stored file a plain GET or HEAD names, or null when this request is not one this filter answers. */
    private StoredFile plainFile(HttpServletRequest request) {
        String method = request.getMethod();
        if (!"GET".equals(method) && !"HEAD".equals(method)
                || request.getQueryString() != null && request.getParameterMap().containsKey("render")) {
            return null;
        }
        return storedFile(images, request.getRequestURI().substring(request.getContextPath().length()));
    }

    /**
     * The stored file a path names ({@code /images/} and the file's name as sent, percent-encoded), or null when it
     * names none: not under {@code /images/}, a directory, a malformed or missing name, or storage that cannot say.
     */
    public static StoredFile storedFile(ImageRepository images, String path) {
        if (!path.startsWith(PREFIX) || path.endsWith("/")) {
            return null;
        }
        String raw = PathParams.decode(path.substring(PREFIX.length()));
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        try {
            Optional<StoredFile> file = images.stat(StorePath.parse(raw));
            return file.filter(f -> !f.directory()).orElse(null);
        } catch (RuntimeException e) {
            return null; // a bad name or unreadable storage: the resource answers it with the store's error
        }
    }

    /** What {@link FileDownload} sends for a stored file. */
    public static FileDownload.Entity entity(ImageRepository images, StoredFile file) {
        return new FileDownload.Entity(file.size(), file.modified(), file.etag(), file.contentType(),
                (offset, length) -> images.open(file, offset, length));
    }
}
