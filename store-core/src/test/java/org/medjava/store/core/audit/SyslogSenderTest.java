package org.medjava.store.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The syslog sender against real UDP and TCP listeners on the loopback interface. */
class SyslogSenderTest {

    private static final String XML = AuditMessage.toXml(AuditEvents.login(Caller.account("alice", "10.0.0.5"),
            true, null), AuditMessageTest.SOURCE);

    /** {@code <PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID - BOM MSG}. */
    private static void checkRfc5424(String message, int pri) throws Exception {
        String header = "<" + pri + ">1 ";
        assertTrue(message.startsWith(header), message);
        String[] parts = message.substring(header.length()).split(" ", 6);
        assertTrue(parts[0].matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z"), parts[0]);
        assertEquals("pacs1", parts[1]);
        assertEquals("MedJava", parts[2]);
        assertEquals(Long.toString(ProcessHandle.current().pid()), parts[3]);
        assertEquals("IHE+RFC-3881", parts[4]);
        assertTrue(parts[5].startsWith("- \uFEFF<?xml"), parts[5]);
        String xml = parts[5].substring(3);
        assertEquals(XML, xml);
        AuditMessageTest.parse(xml);
    }

    @Test
    void udpSendsOneDatagramAMessage() throws Exception {
        try (DatagramSocket collector = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            collector.setSoTimeout(10_000);
            SyslogSender sender = new SyslogSender("udp://127.0.0.1:" + collector.getLocalPort(), "pacs1", "MedJava");
            try {
                sender.send(XML, false, Instant.now());
                sender.send(XML, true, Instant.now());
                byte[] buffer = new byte[65_535];
                DatagramPacket p = new DatagramPacket(buffer, buffer.length);
                collector.receive(p);
                checkRfc5424(new String(p.getData(), 0, p.getLength(), StandardCharsets.UTF_8), 85);
                collector.receive(p);
                checkRfc5424(new String(p.getData(), 0, p.getLength(), StandardCharsets.UTF_8), 84); // a failure
            } finally {
                sender.close();
            }
        }
    }

    @Test
    void tcpFramesMessagesByOctetCountingAndReconnects() throws Exception {
        try (ServerSocket collector = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            collector.setSoTimeout(10_000);
            SyslogSender sender = new SyslogSender("tcp://127.0.0.1:" + collector.getLocalPort(), "pacs1", "MedJava");
            try {
                sender.send(XML, false, Instant.now());
                sender.send(XML, false, Instant.now());
                try (Socket s = collector.accept()) {
                    s.setSoTimeout(10_000);
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    checkRfc5424(frame(in), 85);
                    checkRfc5424(frame(in), 85);
                }
                // the collector closed the connection: later messages open a new one (one may be lost meanwhile)
                Socket second = null;
                for (int i = 0; i < 50 && second == null; i++) {
                    sender.send(XML, false, Instant.now());
                    collector.setSoTimeout(200);
                    try {
                        second = collector.accept();
                    } catch (java.net.SocketTimeoutException e) {
                        // not yet noticed
                    }
                }
                assertTrue(second != null, "the sender connected again");
                try (Socket s = second) {
                    s.setSoTimeout(10_000);
                    checkRfc5424(frame(new DataInputStream(s.getInputStream())), 85);
                }
            } finally {
                sender.close();
            }
        }
    }

    /** One RFC 6587 octet-counted frame: {@code LEN SP MSG}. */
    private static String frame(DataInputStream in) throws Exception {
        ByteArrayOutputStream length = new ByteArrayOutputStream();
        for (int b; (b = in.read()) != ' '; ) {
            assertTrue(b >= '0' && b <= '9', "a length, then a space");
            length.write(b);
        }
        byte[] message = new byte[Integer.parseInt(length.toString(StandardCharsets.US_ASCII))];
        in.readFully(message);
        return new String(message, StandardCharsets.UTF_8);
    }

    @Test
    void anUnreachableCollectorNeverBlocksTheCaller() {
        // nothing listens on this port: the messages are dropped by the sending thread, send() returns at once
        SyslogSender sender = new SyslogSender("tcp://127.0.0.1:1", "pacs1", "MedJava");
        try {
            for (int i = 0; i < 20_000; i++) { // more than the queue holds
                sender.send(XML, false, Instant.now());
            }
        } finally {
            sender.close();
        }
    }

    @Test
    void aMalformedTargetNamesTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SyslogSender("syslog.example.org:514", "h", "MedJava"));
        assertTrue(e.getMessage().contains("medjava.audit.syslog"));
        assertThrows(IllegalArgumentException.class, () -> new SyslogSender("http://h:514", "h", "MedJava"));
    }
}
