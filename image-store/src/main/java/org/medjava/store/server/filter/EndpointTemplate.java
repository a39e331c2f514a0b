package org.medjava.store.server.filter;

import jakarta.annotation.Priority;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Notes, once JAX-RS has matched a request, the resource method's path template ({@code /images/{path}},
 * {@code /dicomweb/studies/{study}/series}) for {@link RequestMetricsFilter}: the class's and the method's
 * {@code @Path}, regular expressions left out.
 */
@Provider
@Priority(Priorities.AUTHENTICATION - 100) // before any filter that may refuse the request
public class EndpointTemplate implements ContainerRequestFilter {

    static final String ATTRIBUTE = EndpointTemplate.class.getName();
    private static final Pattern REGEX = Pattern.compile("\\{\\s*([\\w.-]+)\\s*:[^}]*}");
    private static final Map<Method, String> TEMPLATES = new ConcurrentHashMap<>();

    @Context
    ResourceInfo resource;

    @Context
    HttpServletRequest servletRequest;

    @Override
    public void filter(ContainerRequestContext request) {
        Method method = resource == null ? null : resource.getResourceMethod();
        if (method != null && servletRequest != null) {
            servletRequest.setAttribute(ATTRIBUTE, TEMPLATES.computeIfAbsent(method,
                    m -> template(resource.getResourceClass(), m)));
        }
    }

    /** The template of a resource method: {@code /} + the class's path + {@code /} + the method's path. */
    static String template(Class<?> resourceClass, Method method) {
        StringBuilder t = new StringBuilder();
        Class<?> c = resourceClass;
        while (c != null && c.getAnnotation(Path.class) == null) {
            c = c.getSuperclass(); // a container's subclass (proxy) of the resource
        }
        for (Path p : new Path[] {c == null ? null : c.getAnnotation(Path.class), method.getAnnotation(Path.class)}) {
            if (p != null) {
                String segment = REGEX.matcher(p.value()).replaceAll("{$1}").replaceAll("^/+|/+$", "");
                if (!segment.isEmpty()) {
                    t.append('/').append(segment);
                }
            }
        }
        return t.length() == 0 ? "/" : t.toString();
    }
}
