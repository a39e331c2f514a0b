package org.medjava.store.server.admin;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The claim of one running store on its data directory: an operating-system lock on {@code store.lock}, held from
 * start to shutdown and released by the kernel however the process ends (kill -9 included), so it is never stale.
 * Two stores on one directory would corrupt the index and lose account changes; offline tools
 * ({@code ./medjava admin reset-password}) take the same lock so they never write under a running store.
 * The file holds the owner's pid, for messages.
 */
public final class DataDirectoryLock implements AutoCloseable {

    static final String FILE = "store.lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code dataDir} for this process.
     *
     * @return the lock, or empty when another process (or another part of this one) holds it
     */
    public static Optional<DataDirectoryLock> tryAcquire(Path dataDir) throws IOException {
        Files.createDirectories(dataDir);
        Path file = dataDir.resolve(FILE);
        FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = channel.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null; // held within this JVM
        }
        if (lock == null) {
            channel.close();
            return Optional.empty();
        }
        channel.truncate(0);
        channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)),
                0);
        channel.force(false);
        return Optional.of(new DataDirectoryLock(channel, lock));
    }

    /** The pid written by the holder of the lock, when readable (for messages only). */
    public static Optional<Long> holder(Path dataDir) {
        try {
            return Optional.of(Long.parseLong(Files.readString(dataDir.resolve(FILE)).trim()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
