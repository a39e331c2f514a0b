package org.medjava.bench.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;

/** Java's blocking streams: {@code Socket.getOutputStream().write(buf, 0, n)} with a heap array. */
public final class StreamTransfer implements Transfer {

    @Override
    public String id() {
        return "java-streams";
    }

    @Override
    public Result transfer(int bufferSize, long totalBytes) throws IOException {
        byte[] chunk = new byte[bufferSize];
        Arrays.fill(chunk, (byte) 0x5a);
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Receiver receiver = new Receiver(() -> receive(server))) {
            long t0 = System.nanoTime();
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.getLocalPort()));
                OutputStream out = socket.getOutputStream();
                for (long sent = 0; sent < totalBytes; ) {
                    int n = (int) Math.min(bufferSize, totalBytes - sent);
                    out.write(chunk, 0, n);
                    sent += n;
                }
            }
            long bytes = receiver.await();
            return new Result(bytes, (System.nanoTime() - t0) / 1e9);
        }
    }

    private static long receive(ServerSocket server) throws IOException {
        byte[] buffer = new byte[RECEIVE_BUFFER];
        long total = 0;
        try (Socket socket = server.accept(); InputStream in = socket.getInputStream()) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                total += n;
            }
        }
        return total;
    }
}
