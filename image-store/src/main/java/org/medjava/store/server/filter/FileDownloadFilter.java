package org.medjava.store.server.filter;

import jakarta.inject.Inject;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
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
        if (wholeRead(request)) {
            ImageRepository.Opened opened = opened(images, path(request));
            if (opened == null) {
                chain.doFilter(request, response);
                return;
            }
            try (opened) {
                send(request, response, entity(images, opened), opened.file());
            }
            return;
        }
        StoredFile file = plainFile(request);
        if (file == null) {
            chain.doFilter(request, response);
            return;
        }
        send(request, response, entity(images, file), file);
    }

    private void send(HttpServletRequest request, HttpServletResponse response, FileDownload.Entity entity,
                      StoredFile file) throws IOException {
        request.setAttribute(EndpointTemplate.ATTRIBUTE, ENDPOINT);
        FileDownload.send(FileDownload.of(request, response), entity);
        if ("GET".equals(request.getMethod()) && response.getStatus() / 100 == 2) {
            audit.file(RequestCaller.of(request), DOOR, file.path().relative());
        }
    }

    /**
     * A GET of a whole file, without conditions: its bytes are sent whatever the version, so the file and its body
     * are read together, in one storage request (on S3 one GetObject instead of a HEAD and a GET). A conditional
     * GET or a HEAD asks for the metadata alone first (on S3 one HEAD: a 304 without a body read), a range for part
     * of the body.
     */
    private static boolean wholeRead(HttpServletRequest request) {
        return "GET".equals(request.getMethod()) && request.getQueryString() == null
                && request.getHeader("Range") == null && request.getHeader("If-None-Match") == null
                && request.getHeader("If-Modified-Since") == null && request.getHeader("If-Match") == null
                && request.getHeader("If-Unmodified-Since") == null;
    }

    private static String path(HttpServletRequest request) {
        return request.getRequestURI().substring(request.getContextPath().length());
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
        return storedFile(images, path(request));
    }

    /**
     * The stored file a path names ({@code /images/} and the file's name as sent, percent-encoded), or null when it
     * names none: not under {@code /images/}, a directory, a malformed or missing name, or storage that cannot say.
     */
    public static StoredFile storedFile(ImageRepository images, String path) {
        StorePath file = filePath(path);
        try {
            return file == null ? null : images.stat(file).filter(f -> !f.directory()).orElse(null);
        } catch (RuntimeException e) {
            return null; // a bad name or unreadable storage: the resource answers it with the store's error
        }
    }

    /**
     * The stored file a path names, with this node's local copy of it opened ({@link ImageRepository#cached}), or
     * null when there is none to serve now (as for {@link #storedFile}, and a file not cached).
     */
    public static ImageRepository.Cached cachedFile(ImageRepository images, String path) {
        StorePath file = filePath(path);
        try {
            return file == null ? null : images.cached(file).orElse(null);
        } catch (RuntimeException e) {
            return null; // as in storedFile
        }
    }

    /** The stored file a path names with its body ({@link ImageRepository#read}), or null as for {@link #storedFile}. */
    static ImageRepository.Opened opened(ImageRepository images, String path) {
        StorePath file = filePath(path);
        try {
            return file == null ? null : images.read(file).orElse(null);
        } catch (RuntimeException e) {
            return null; // as in storedFile
        }
    }

    /** The file path under {@code /images/} as sent (percent-encoded), or null when it names no file. */
    private static StorePath filePath(String path) {
        if (!path.startsWith(PREFIX) || path.endsWith("/")) {
            return null;
        }
        String raw = PathParams.decode(path.substring(PREFIX.length()));
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        try {
            return StorePath.parse(raw);
        } catch (RuntimeException e) {
            return null; // a bad name: the resource answers it with the store's error
        }
    }

    /** What {@link FileDownload} sends for a stored file. */
    public static FileDownload.Entity entity(ImageRepository images, StoredFile file) {
        return new FileDownload.Entity(file.size(), file.modified(), file.etag(),
                file.contentType(), (offset, length) -> images.open(file, offset, length));
    }

    /** What {@link FileDownload} sends for a file read with its body: that body, once, for the whole file. */
    static FileDownload.Entity entity(ImageRepository images, ImageRepository.Opened opened) {
        StoredFile file = opened.file();
        boolean[] taken = {false};
        return new FileDownload.Entity(file.size(), file.modified(), file.etag(),
                file.contentType(), (offset, length) -> {
                    if (!taken[0] && offset == 0 && length == file.size()) {
                        taken[0] = true;
                        return opened.body();
                    }
                    return images.open(file, offset, length);
                });
    }
}
