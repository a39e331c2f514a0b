package org.medjava.bench.ipc;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The Java side of experiment 3 (Apvrille et al.'s transport building blocks), the same blocks as
 * {@code src/main/c/ipc/blocks.c}: {@code copy-memcpy} (System.arraycopy of a 1,024-byte block, 10,000 times),
 * {@code copy-loop} (the same with a byte loop), {@code crc16} ({@link Crc16} over 50 packets of 1,024 bytes) and
 * {@code udp} (100,000 datagrams of 1,024 bytes to a receiver thread over 127.0.0.1, DatagramSocket; timed from
 * the first send to the last datagram received, the receiver stops after 200 ms of silence, losses counted).
 * <pre>
 *   JavaBlocks --label jit|xint --fork K --warmup-seconds S --runs R [--datagrams N] [--timeout S]
 * </pre>
 * One CSV line per measured run: {@code java-<label>,<block>,<fork>,<run>,<seconds>,<lost>}.
 */
public final class JavaBlocks {
    static final int BLOCK = 1024;
    static final int COPIES = 10_000;
    static final int PACKETS = 50;

    private final byte[] src = new byte[BLOCK];
    private final byte[] dst = new byte[BLOCK];
    private final byte[][] packets = new byte[PACKETS][BLOCK];
    /** Results land here so no block is optimized away. */
    private long sink;

    private JavaBlocks() {
        for (int p = 0; p < PACKETS; p++) {
            for (int k = 0; k < BLOCK; k++) {
                packets[p][k] = (byte) (p * 31 + k * 7);
            }
        }
        for (int k = 0; k < BLOCK; k++) {
            src[k] = (byte) k;
        }
    }

    void copyArraycopy() {
        for (int i = 0; i < COPIES; i++) {
            src[i & (BLOCK - 1)] = (byte) i; // a changed source each time: the copy cannot be hoisted
            System.arraycopy(src, 0, dst, 0, BLOCK);
        }
        sink += dst[7];
    }

    void copyLoop() {
        for (int i = 0; i < COPIES; i++) {
            src[i & (BLOCK - 1)] = (byte) i;
            for (int k = 0; k < BLOCK; k++) {
                dst[k] = src[k];
            }
        }
        sink += dst[7];
    }

    void crcPackets() {
        long all = 0;
        for (byte[] p : packets) {
            all += Crc16.of(p, 0, BLOCK);
        }
        sink += all;
    }

    /** @return {seconds, lost} */
    static double[] udp(int datagrams) throws Exception {
        try (DatagramSocket in = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             DatagramSocket out = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            in.setReceiveBufferSize(4 << 20);
            in.setSoTimeout(200);
            out.connect(in.getLocalSocketAddress());
            long[] received = {0};
            long t0 = System.nanoTime();
            long[] last = {t0};
            Thread receiver = new Thread(() -> {
                DatagramPacket p = new DatagramPacket(new byte[BLOCK], BLOCK);
                try {
                    while (received[0] < datagrams) {
                        in.receive(p);
                        received[0]++;
                        last[0] = System.nanoTime();
                    }
                } catch (SocketTimeoutException e) {
                    // 200 ms of silence: the rest was lost
                } catch (IOException e) {
                    received[0] = -1;
                }
            }, "udp-receiver");
            receiver.start();
            byte[] buf = new byte[BLOCK];
            java.util.Arrays.fill(buf, (byte) 'u');
            DatagramPacket p = new DatagramPacket(buf, BLOCK);
            for (int i = 0; i < datagrams; i++) {
                buf[0] = (byte) i;
                out.send(p);
            }
            receiver.join();
            if (received[0] < 0) {
                throw new IOException("the UDP receiver failed");
            }
            return new double[] {(last[0] - t0) / 1e9, datagrams - received[0]};
        }
    }

    public static void main(String[] args) throws Exception {
        String label = "jit";
        int fork = 0;
        int runs = 5;
        int timeout = 600;
        double warmup = 0.5;
        int datagrams = 100_000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            String v = args[i + 1];
            switch (args[i]) {
                case "--label": label = v; break;
                case "--fork": fork = Integer.parseInt(v); break;
                case "--runs": runs = Integer.parseInt(v); break;
                case "--warmup-seconds": warmup = Double.parseDouble(v); break;
                case "--datagrams": datagrams = Integer.parseInt(v); break;
                case "--timeout": timeout = Integer.parseInt(v); break;
                default: throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        watchdog(timeout);
        if (Crc16.of("123456789".getBytes(StandardCharsets.US_ASCII), 0, 9) != Crc16.CHECK_VALUE) {
            throw new IllegalStateException("CRC-16/CCITT-FALSE check value wrong");
        }
        JavaBlocks b = new JavaBlocks();
        String[] names = {"copy-memcpy", "copy-loop", "crc16"};
        Runnable[] blocks = {b::copyArraycopy, b::copyLoop, b::crcPackets};
        for (int k = 0; k < blocks.length; k++) {
            long end = System.nanoTime() + (long) (warmup * 1e9);
            do {
                blocks[k].run();
            } while (System.nanoTime() < end);
            for (int r = 0; r < runs; r++) {
                long t0 = System.nanoTime();
                blocks[k].run();
                System.out.printf(Locale.ROOT, "java-%s,%s,%d,%d,%.9f,0%n", label, names[k], fork, r,
                        (System.nanoTime() - t0) / 1e9);
            }
        }
        long end = System.nanoTime() + (long) (warmup * 1e9);
        do {
            udp(datagrams);
        } while (System.nanoTime() < end);
        for (int r = 0; r < runs; r++) {
            double[] t = udp(datagrams);
            System.out.printf(Locale.ROOT, "java-%s,udp,%d,%d,%.9f,%d%n", label, fork, r, t[0], (long) t[1]);
        }
        System.out.flush();
        System.exit(b.sink == Long.MIN_VALUE ? 3 : 0);
    }

    private static void watchdog(int seconds) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(seconds * 1000L);
                System.err.println("blocks (java): still running after " + seconds + " s, giving up");
                Runtime.getRuntime().halt(3);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "blocks-watchdog");
        t.setDaemon(true);
        t.start();
    }
}
