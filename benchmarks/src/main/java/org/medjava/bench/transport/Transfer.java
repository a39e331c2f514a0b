package org.medjava.bench.transport;

import java.io.IOException;

/**
 * One loopback transfer: a receiver thread accepts a connection on 127.0.0.1 and reads until EOF with a
 * {@link #RECEIVE_BUFFER}-byte buffer; the sender writes {@code totalBytes} in {@code bufferSize} chunks and closes.
 * Timed from connect to the receiver's EOF, like the C program ({@code benchmarks/src/main/c/transport.c}).
 */
public interface Transfer {
    /** The receive buffer of every receiver, C and Java. */
    int RECEIVE_BUFFER = 64 * 1024;

    /** {@code java-streams}, {@code java-nio}: the CSV and chart id. */
    String id();

    /** @return the measured transfer, with the byte count the receiver saw */
    Result transfer(int bufferSize, long totalBytes) throws IOException;

    /** Bytes the receiver read and the seconds from connect to EOF. */
    record Result(long bytes, double seconds) {
    }
}
