package org.medjava.store.core.audit;

import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;

/**
 * Sends audit messages to a syslog collector (an audit record repository) as RFC 5424 messages, as DICOM's audit
 * trail profile does: over UDP, one message a datagram (RFC 5426), or over TCP with octet-counting framing (RFC 6587,
 * as RFC 5425 frames TLS; TLS itself is not offered). Facility authpriv (10), severity notice (5), or warning (4)
 * for a failure; MSGID {@code IHE+RFC-3881}; the XML after a UTF-8 byte order mark.
 *
 * <p>Messages wait in a bounded queue for one sending thread, so the audited operation never waits for the network;
 * when the collector is unreachable or the queue is full, messages are dropped (the audit file keeps them all) and a
 * warning says so once until sending works again.
 */
public final class SyslogSender implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(SyslogSender.class.getName());
    private static final int QUEUE = 10_000;
    private static final int FACILITY_AUTHPRIV = 10;

    private final String transport;
    private final InetSocketAddress collector;
    private final String host;
    private final String appName;
    private final BlockingQueue<byte[]> queue = new ArrayBlockingQueue<>(QUEUE);
    private final Thread sender;
    private volatile boolean closed;
    private volatile boolean troubled;
    private DatagramSocket udp;
    private Socket tcp;

    /**
     * @param target {@code udp://host:port} or {@code tcp://host:port} (port 514 when omitted)
     * @throws IllegalArgumentException when the target is not such a URL
     */
    public SyslogSender(String target, String host, String appName) {
        URI uri;
        try {
            uri = URI.create(target.trim());
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        String scheme = uri == null || uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri == null || uri.getHost() == null || !(scheme.equals("udp") || scheme.equals("tcp"))) {
            throw new IllegalArgumentException("medjava.audit.syslog is \"" + target + "\": write udp://host:port "
                    + "or tcp://host:port (e.g. udp://audit.example.org:514)");
        }
        this.transport = scheme;
        this.collector = new InetSocketAddress(uri.getHost(), uri.getPort() > 0 ? uri.getPort() : 514);
        this.host = printable(host, 255);
        this.appName = printable(appName, 48);
        this.sender = new Thread(this::run, "audit-syslog");
        sender.setDaemon(true);
        sender.start();
    }

    /** Queues a message for sending; never blocks. */
    public void send(String xml, boolean failure, Instant time) {
        if (!queue.offer(frame(xml, failure, time))) {
            trouble("the syslog queue is full (" + QUEUE + " messages); audit messages are dropped for syslog");
        }
    }

    /** The RFC 5424 message: {@code <PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID - BOM MSG}. */
    byte[] frame(String xml, boolean failure, Instant time) {
        int pri = FACILITY_AUTHPRIV * 8 + (failure ? 4 : 5);
        String header = "<" + pri + ">1 " + DateTimeFormatter.ISO_INSTANT.format(time.truncatedTo(ChronoUnit.MILLIS))
                + " " + host + " " + appName + " " + ProcessHandle.current().pid() + " IHE+RFC-3881 - \uFEFF";
        return (header + xml).getBytes(StandardCharsets.UTF_8);
    }

    private void run() {
        while (!closed) {
            byte[] message;
            try {
                message = queue.poll(500, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                break;
            }
            if (message == null) {
                continue;
            }
            try {
                deliver(message);
                if (troubled) {
                    troubled = false;
                    LOG.info("audit messages reach the syslog collector " + where() + " again");
                }
            } catch (IOException e) {
                disconnect();
                trouble("cannot send audit messages to syslog " + where() + " ("
                        + e.getMessage() + "); they are kept in audit.log only until it works again");
            }
        }
        disconnect();
    }

    private void deliver(byte[] message) throws IOException {
        if (transport.equals("udp")) {
            if (udp == null) {
                udp = new DatagramSocket();
            }
            udp.send(new DatagramPacket(message, message.length, collector));
            return;
        }
        if (tcp == null) {
            Socket s = new Socket();
            try {
                s.connect(collector, 3000);
            } catch (IOException e) {
                s.close();
                throw e;
            }
            tcp = s;
        }
        OutputStream out = tcp.getOutputStream();
        out.write((message.length + " ").getBytes(StandardCharsets.US_ASCII));
        out.write(message);
        out.flush();
    }

    private void disconnect() {
        try {
            if (tcp != null) {
                tcp.close();
            }
        } catch (IOException e) {
            // closing anyway
        }
        tcp = null;
        if (udp != null) {
            udp.close();
            udp = null;
        }
    }

    private String where() {
        return transport + "://" + collector.getHostString() + ":" + collector.getPort();
    }

    private void trouble(String message) {
        if (!troubled) {
            troubled = true;
            LOG.warning(message);
        }
    }

    private static String printable(String s, int max) {
        String p = s == null || s.isBlank() ? "-" : s.replaceAll("[^\\x21-\\x7E]", "_");
        return p.length() > max ? p.substring(0, max) : p;
    }

    /** Sends what is queued (for at most two seconds), then stops. */
    @Override
    public void close() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (!queue.isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        closed = true;
        try {
            sender.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
