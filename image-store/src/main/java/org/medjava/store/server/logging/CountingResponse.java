package org.medjava.store.server.logging;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/** A response that counts the body bytes the application writes (for the access log). */
final class CountingResponse extends HttpServletResponseWrapper {

    private long bytes;
    private ServletOutputStream stream;
    private PrintWriter writer;

    CountingResponse(HttpServletResponse response) {
        super(response);
    }

    long bytes() {
        return bytes;
    }

    /**
     * Sends on what the application left in this wrapper's writer: the container flushes its own writer when the
     * request ends, not this one (a servlet that never flushes would otherwise send an empty body).
     */
    void finish() {
        if (writer != null) {
            writer.flush();
        }
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
        if (stream == null) {
            ServletOutputStream out = super.getOutputStream();
            stream = new ServletOutputStream() {
                @Override
                public void write(int b) throws IOException {
                    out.write(b);
                    bytes++;
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    out.write(b, off, len);
                    bytes += len;
                }

                @Override
                public void flush() throws IOException {
                    out.flush();
                }

                @Override
                public void close() throws IOException {
                    out.close();
                }

                @Override
                public boolean isReady() {
                    return out.isReady();
                }

                @Override
                public void setWriteListener(WriteListener listener) {
                    out.setWriteListener(listener);
                }
            };
        }
        return stream;
    }

    @Override
    public PrintWriter getWriter() throws IOException {
        if (writer == null) {
            String encoding = getCharacterEncoding();
            writer = new PrintWriter(new OutputStreamWriter(getOutputStream(),
                    Charset.forName(encoding == null ? "ISO-8859-1" : encoding)));
        }
        return writer;
    }

    @Override
    public void flushBuffer() throws IOException {
        if (writer != null) {
            writer.flush();
        }
        super.flushBuffer();
    }
}
