package org.medjava.bench.ingest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.net.dimse.RemoteAe;
import org.medjava.store.net.dimse.StorageSender;

/**
 * C-STORE with the store's own storage SCU (dicom-net's {@link StorageSender}, on PixelMed's association layer): one
 * association per sender, the instances in turn, each timed from the previous response to its own, which the
 * sender's per-instance callback reports.
 */
final class CStoreSender implements InstanceSender {
    /** The calling AE title; the store is told to accept it ({@code medjava.dicom.allowed-aets}). */
    static final String CALLING_AE = "MEDJAVABENCH";

    private final RemoteAe to;

    CStoreSender(RemoteAe to) {
        this.to = to;
    }

    @Override
    public long[] send(List<Path> files) throws IOException {
        List<Part10File> parts = new ArrayList<>(files.size());
        for (Path f : files) {
            parts.add(Part10File.read(f));
        }
        long[] nanos = new long[files.size()];
        List<String> failures = new ArrayList<>();
        long[] last = {System.nanoTime()};
        int[] done = {0};
        StorageSender.send(to, CALLING_AE, parts, null, 0, (file, status, error, counts) -> {
            long now = System.nanoTime();
            nanos[done[0]++] = now - last[0];
            last[0] = now;
            boolean stored = status == 0 || (status & 0xF000) == 0xB000; // success, or a warning (PS3.7 C.4)
            if (!stored && failures.size() < 3) {
                failures.add(file.sopInstanceUid() + ": status " + (status < 0 ? "none" : "0x"
                        + Integer.toHexString(status)) + (error == null || error.isEmpty() ? "" : " (" + error + ")"));
            }
        });
        if (!failures.isEmpty()) {
            throw new IOException("C-STORE to " + to + " failed: " + String.join("; ", failures));
        }
        return nanos;
    }
}
