package org.medjava.bench.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/** NIO channels in blocking mode with direct buffers: the JDK's closest thing to a plain {@code write(2)} loop. */
public final class NioTransfer implements Transfer {

    @Override
    public String id() {
        return "java-nio";
    }

    @Override
    public Result transfer(int bufferSize, long totalBytes) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(bufferSize);
        while (chunk.hasRemaining()) {
            chunk.put((byte) 0x5a);
        }
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            try (Receiver receiver = new Receiver(() -> receive(server))) {
                long t0 = System.nanoTime();
                try (SocketChannel channel = SocketChannel.open(server.getLocalAddress())) {
                    for (long sent = 0; sent < totalBytes; ) {
                        int n = (int) Math.min(bufferSize, totalBytes - sent);
                        chunk.clear().limit(n);
                        while (chunk.hasRemaining()) {
                            channel.write(chunk);
                        }
                        sent += n;
                    }
                }
                long bytes = receiver.await();
                return new Result(bytes, (System.nanoTime() - t0) / 1e9);
            }
        }
    }

    private static long receive(ServerSocketChannel server) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocateDirect(RECEIVE_BUFFER);
        long total = 0;
        try (SocketChannel channel = server.accept()) {
            for (int n; (n = channel.read(buffer)) >= 0; buffer.clear()) {
                total += n;
            }
        }
        return total;
    }
}
