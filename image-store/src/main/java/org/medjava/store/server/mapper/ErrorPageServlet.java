package org.medjava.store.server.mapper;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.medjava.store.server.http.ErrorBody;

/**
 * The error page of the whole application (web.xml): a refusal or failure the web container answers itself (an
 * exception that escaped a filter, a {@code sendError} from outside JAX-RS, a request too large) gets the store's
 * JSON error body instead of the container's HTML page, which names the server product and exception classes.
 */
@WebServlet(urlPatterns = ErrorPageServlet.PATH)
public class ErrorPageServlet extends HttpServlet {

    static final String PATH = "/medjava-error";

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
        int status = code instanceof Integer i ? i : 404;
        Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        String path = uri instanceof String s ? s : request.getRequestURI();
        if (request.getAttribute(RequestDispatcher.ERROR_EXCEPTION) instanceof Throwable t) {
            java.util.logging.Logger.getLogger(ErrorPageServlet.class.getName()).log(java.util.logging.Level.SEVERE,
                    "request " + path + " failed", t);
        }
        response.setStatus(status);
        response.setContentType("application/json");
        response.setCharacterEncoding("UTF-8");
        if (!"HEAD".equals(request.getMethod())) {
            byte[] body = ErrorBody.json(status, ErrorBody.standardMessage(status, request.getMethod(), path))
                    .getBytes(StandardCharsets.UTF_8);
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        }
    }
}
