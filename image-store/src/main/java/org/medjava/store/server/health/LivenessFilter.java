package org.medjava.store.server.health;

import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonWriter;
import jakarta.json.JsonWriterFactory;
import jakarta.json.spi.JsonProvider;
import jakarta.json.stream.JsonGenerator;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * {@code GET /health/live} answered by the store itself, in MicroProfile Health's format, instead of by Payara's
 * health servlet: the same checks (every {@code @Liveness} bean of the application, today {@link StoreLiveness}),
 * the same JSON (compact, pretty-printed with {@code ?pretty} other than {@code false}; every data value a string;
 * as Payara writes it), the same statuses (200 UP, 503 DOWN), for GET, HEAD and POST like Payara's servlet. Payara's
 * servlet called JSON-P's static {@code Json.create…} for every object it built, and each such call looks the JSON
 * provider up anew through {@link java.util.ServiceLoader} on the application's class loader — a scan of the
 * class path's jars: 60% of the CPU of a liveness request (JFR profile in docs/performance.md). Here the provider is
 * looked up once. {@code /health}, {@code /health/ready} and {@code /health/started} stay Payara's.
 */
public class LivenessFilter extends HttpFilter {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = Logger.getLogger(LivenessFilter.class.getName());
    /** The path answered here, after the context path. */
    public static final String PATH = "/health/live";

    /** Looked up once: {@code Json.createObjectBuilder()} and the like look it up on every call. */
    private static final JsonProvider JSON = JsonProvider.provider();
    private static final JsonWriterFactory PRETTY = JSON.createWriterFactory(
            Map.of(JsonGenerator.PRETTY_PRINTING, true));
    private static final JsonWriterFactory COMPACT = JSON.createWriterFactory(Map.of());

    @Inject
    @Any
    @Liveness
    Instance<HealthCheck> checks;

    /** The liveness checks, resolved once (application-scoped beans; their proxies are called per request). */
    private volatile List<HealthCheck> resolved;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        String method = request.getMethod();
        String uri = request.getRequestURI();
        int from = request.getContextPath().length();
        if (!("GET".equals(method) || "HEAD".equals(method) || "POST".equals(method))
                || uri.length() != from + PATH.length()
                || !uri.startsWith(PATH, from)) {
            chain.doFilter(request, response);
            return;
        }
        String prettyParameter = request.getQueryString() == null ? null : request.getParameter("pretty");
        boolean pretty = prettyParameter != null && !"false".equals(prettyParameter);
        Report report = report(checks(), pretty);
        response.setStatus(report.up() ? HttpServletResponse.SC_OK : HttpServletResponse.SC_SERVICE_UNAVAILABLE);
        response.setContentType("application/json");
        response.setContentLength(report.json().length);
        if (!"HEAD".equals(method)) {
            response.getOutputStream().write(report.json());
        }
    }

    private List<HealthCheck> checks() {
        List<HealthCheck> all = resolved;
        if (all == null) {
            all = checks.stream().toList();
            resolved = all;
        }
        return all;
    }

    /** What a liveness request is answered: 200 with {@code json} when {@code up}, else 503. */
    public record Report(boolean up, byte[] json) {
    }

    /** Runs the checks: UP when all are (the store's front answers liveness with this too). */
    public static Report report(List<HealthCheck> all, boolean pretty) {
        boolean up = !all.isEmpty();
        JsonArrayBuilder array = JSON.createArrayBuilder();
        if (all.isEmpty()) {
            array.add(JSON.createObjectBuilder().add("name", "No Application deployed").add("status", "DOWN")
                    .add("data", JSON.createObjectBuilder()));
        }
        for (HealthCheck check : all) {
            HealthCheckResponse result;
            try {
                result = check.call();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "liveness check " + check.getClass().getName() + " failed", e);
                result = HealthCheckResponse.named(check.getClass().getName()).down()
                        .withData("error", String.valueOf(e.getMessage())).build();
            }
            up &= result.getStatus() == HealthCheckResponse.Status.UP;
            JsonObjectBuilder data = JSON.createObjectBuilder();
            result.getData().ifPresent(d -> d.forEach((k, v) -> data.add(k, String.valueOf(v))));
            array.add(JSON.createObjectBuilder().add("name", result.getName())
                    .add("status", result.getStatus().toString()).add("data", data));
        }
        StringWriter out = new StringWriter(160);
        try (JsonWriter writer = (pretty ? PRETTY : COMPACT).createWriter(out)) {
            writer.writeObject(JSON.createObjectBuilder().add("status", up ? "UP" : "DOWN").add("checks", array)
                    .build());
        }
        return new Report(up, out.toString().getBytes(StandardCharsets.UTF_8));
    }
}
