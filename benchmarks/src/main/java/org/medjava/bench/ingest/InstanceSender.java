package org.medjava.bench.ingest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** One sender: sends its files one after the other over one association or connection, timing each instance. */
interface InstanceSender {

    /**
     * Sends {@code files} in order; returns each instance's time in nanoseconds, from the end of the one before (or
     * from the call, for the first, which also opens the association or connection) until the server confirmed it.
     *
     * @throws IOException when an instance was not stored, naming it and what the server said
     */
    long[] send(List<Path> files) throws IOException, InterruptedException;
}
