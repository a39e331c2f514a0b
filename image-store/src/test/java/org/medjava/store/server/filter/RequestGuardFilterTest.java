package org.medjava.store.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.medjava.store.server.config.LinkSettings;
import org.medjava.store.server.config.SettingsSource;

/**
 * The Host check of {@link RequestGuardFilter} follows the configured medjava.public-url.
 */
class RequestGuardFilterTest {

    /** A name that is none of this machine's: refused unless a public URL is configured. */
    private static final String FOREIGN_HOST = "pacs.example.org";

    /** The link settings with this public URL (and no extra host names). */
    private static LinkSettings links(String publicUrl) {
        return LinkSettings.from(SettingsSource.of(publicUrl == null ? Map.of() : Map.of("medjava.public-url",
                publicUrl)));
    }

    /** What the filter did with one request: passed it on, or answered with this status and body. */
    private record Outcome(boolean passedOn, int status, String body) {
    }

    private static Outcome filter(RequestGuardFilter filter, String host) throws Exception {
        HttpServletRequest request = (HttpServletRequest) Proxy.newProxyInstance(loader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "getHeader" -> "Host".equalsIgnoreCase((String) args[0]) ? host : null;
                    case "getDispatcherType" -> DispatcherType.REQUEST;
                    case "getLocalAddr" -> "127.0.0.1";
                    case "getRequestURI" -> "/images/";
                    case "getContextPath" -> "";
                    case "isRequestedSessionIdFromURL" -> false;
                    case "getMethod" -> "GET";
                    case "isSecure" -> false;
                    default -> throw new UnsupportedOperationException(m.getName());
                });
        Map<String, Object> answer = new HashMap<>();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        ServletOutputStream out = new ServletOutputStream() {
            @Override
            public boolean isReady() {
                return true;
            }

            @Override
            public void setWriteListener(WriteListener listener) {
            }

            @Override
            public void write(int b) {
                body.write(b);
            }
        };
        HttpServletResponse response = (HttpServletResponse) Proxy.newProxyInstance(loader(),
                new Class<?>[] {HttpServletResponse.class}, (proxy, m, args) -> {
                    switch (m.getName()) {
                        case "setStatus" -> answer.put("status", args[0]);
                        case "getOutputStream" -> {
                            return out;
                        }
                        case "setHeader", "setContentType", "setCharacterEncoding", "setContentLength" -> {
                        }
                        default -> throw new UnsupportedOperationException(m.getName());
                    }
                    return null;
                });
        boolean[] passedOn = {false};
        FilterChain chain = (req, res) -> passedOn[0] = true;
        filter.doFilter(request, response, chain);
        return new Outcome(passedOn[0], (Integer) answer.getOrDefault("status", 200),
                body.toString(StandardCharsets.UTF_8));
    }

    private static ClassLoader loader() {
        return RequestGuardFilterTest.class.getClassLoader();
    }

    private static RequestGuardFilter filterWith(LinkSettings links) {
        RequestGuardFilter filter = new RequestGuardFilter();
        filter.links = links;
        return filter;
    }

    @Test
    void withThePublicUrlConfiguredItsHostIsServedAnotherIsRefused() throws Exception {
        RequestGuardFilter filter = filterWith(links("https://pacs.example.org/medjava"));
        for (int i = 0; i < 3; i++) {
            assertThat(filter(filter, FOREIGN_HOST)).isEqualTo(new Outcome(true, 200, ""));
            assertThat(filter(filter, FOREIGN_HOST + ":443")).isEqualTo(new Outcome(true, 200, ""));
            assertThat(filter(filter, "localhost:8080")).isEqualTo(new Outcome(true, 200, ""));
            // what ./medjava start runs with: a public URL is no licence for any name (DNS rebinding)
            Outcome rebound = filter(filter, "rebinding.example:8080");
            assertThat(rebound.passedOn()).isFalse();
            assertThat(rebound.status()).isEqualTo(400);
            assertThat(rebound.body()).contains("unknown host");
        }
    }

    @Test
    void withoutThePublicUrlAForeignHostIsRefused() throws Exception {
        RequestGuardFilter filter = filterWith(links(null));
        for (int i = 0; i < 3; i++) {
            Outcome refused = filter(filter, FOREIGN_HOST);
            assertThat(refused.passedOn()).isFalse();
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.body()).contains("unknown host");
            assertThat(filter(filter, "localhost:8080")).isEqualTo(new Outcome(true, 200, ""));
        }
    }

    @Test
    void aRequestWithoutHostIsPassedOn() throws Exception {
        assertThat(filter(filterWith(links("https://pacs.example.org/medjava")), null))
                .isEqualTo(new Outcome(true, 200, ""));
    }
}
