package org.medjava.store.server.filter;

import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.WriterInterceptor;
import jakarta.ws.rs.ext.WriterInterceptorContext;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A client that hangs up while a response body is being written is the client's business: one line at FINE, not
 * Jersey's SEVERE with a stack trace for every viewer that scrolled past an image or a {@code curl --max-time}. A
 * failed write to the connection ends the body at once (nothing more is read from storage for nobody); what is
 * left of the response, Jersey's final flush and close included, goes nowhere quietly. Errors reading the stored
 * data are not the connection's and still propagate.
 */
@Provider
public class ClientGoneInterceptor implements WriterInterceptor {
    private static final Logger LOG = Logger.getLogger(ClientGoneInterceptor.class.getName());

    @Override
    public void aroundWriteTo(WriterInterceptorContext context) throws IOException {
        ConnectionStream connection = new ConnectionStream(context.getOutputStream());
        context.setOutputStream(connection);
        try {
            context.proceed();
        } catch (ClientGone gone) {
            LOG.log(Level.FINE, "the client went after {0} bytes of the body: {1}",
                    new Object[] {connection.written, gone.getCause().toString()});
        }
    }

    /** The connection failed under a write: the client is gone. */
    static final class ClientGone extends IOException {
        private static final long serialVersionUID = 1L;

        ClientGone(IOException cause) {
            super("the client closed the connection", cause);
        }
    }

    /**
     * The container's stream; the first failed write marks it gone: writes then fail at once (ending the body),
     * flushes and closes do nothing.
     */
    static final class ConnectionStream extends FilterOutputStream {
        private boolean gone;
        long written;

        ConnectionStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (gone) {
                throw new ClientGone(new IOException("already closed"));
            }
            try {
                out.write(b, off, len);
                written += len;
            } catch (IOException e) {
                gone = true;
                throw new ClientGone(e);
            }
        }

        @Override
        public void flush() throws IOException {
            if (gone) {
                return;
            }
            try {
                out.flush();
            } catch (IOException e) {
                gone = true;
                throw new ClientGone(e);
            }
        }

        @Override
        public void close() throws IOException {
            if (gone) {
                return;
            }
            try {
                out.close();
            } catch (IOException e) {
                gone = true;
                throw new ClientGone(e);
            }
        }
    }
}
