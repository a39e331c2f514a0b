package org.medjava.store.testkit.pacs;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.TestStudy;

/** DCMTK's network tools aimed at the {@link PacsStore}, with the calling AE title each test uses. */
public final class Dcmtk {

    private Dcmtk() {
    }

    public static Command.Result echo(String callingAe, String calledAe) throws IOException, InterruptedException {
        return Command.run(Command.of("echoscu", "-aet", callingAe, "-aec", calledAe, "127.0.0.1",
                PacsStore.dicomPort()));
    }

    /** storescu with verbose output, not halting at a failed store, each file proposed in its own syntax. */
    public static Command.Result store(List<String> options, Path... files) throws IOException, InterruptedException {
        return store(PacsStore.dicomPort(), options, files);
    }

    /**
     * As {@link #store(List, Path...)}, to a store of its own listening on {@code port} as {@link PacsStore#AE}; with
     * DCMTK's own connection, association and DIMSE time limits, so that a store that stops answering fails the
     * test with storescu's account of where it waited instead of JUnit's bare timeout.
     */
    public static Command.Result store(int port, List<String> options, Path... files) throws IOException,
            InterruptedException {
        return Command.run(Command.of("storescu", "-v", "-nh", "-to", "30", "-ta", "30", "-td", "60", options,
                "-aet", "STORESCU", "-aec", PacsStore.AE, "127.0.0.1", port, List.of((Object[]) files)));
    }

    /** Sends each instance with the options that keep its transfer syntax; asserts every store succeeded. */
    public static void storeAll(TestStudy study) throws IOException, InterruptedException {
        storeAll(PacsStore.dicomPort(), study);
    }

    /** As {@link #storeAll(TestStudy)}, to a store of its own listening on {@code port}. */
    public static void storeAll(int port, TestStudy study) throws IOException, InterruptedException {
        for (TestStudy.Instance i : study.instances()) {
            Command.Result r = store(port, i.storescuOptions(), i.file()).assertOk();
            if (!r.output().contains("Received Store Response (Success)")) {
                throw new AssertionError("storing " + i.sample() + " failed:\n" + r.output());
            }
        }
    }

    /** findscu with keys like {@code StudyDate=20040101-} (return keys without '='); {@code -S} or {@code -P}. */
    public static Command.Result find(String model, String... keys) throws IOException, InterruptedException {
        return Command.run(Command.of("findscu", "-v", model, "-aet", "FINDSCU", "-aec", PacsStore.AE, "127.0.0.1",
                PacsStore.dicomPort(), keyArgs(keys)));
    }

    public static Command.Result get(Path into, String... keys) throws IOException, InterruptedException {
        return get(List.of(), into, keys);
    }

    /** getscu with options, such as the storage syntax it prefers ({@code +xs}: JPEG Lossless SV1). */
    public static Command.Result get(List<String> options, Path into, String... keys) throws IOException,
            InterruptedException {
        return Command.run(Command.of("getscu", "-v", "-S", "+B", "-aet", "GETSCU", "-aec", PacsStore.AE, options,
                "127.0.0.1", PacsStore.dicomPort(), "-od", into, keyArgs(keys)));
    }

    public static Command.Result move(String destination, String... keys) throws IOException, InterruptedException {
        return Command.run(Command.of("movescu", "-v", "-S", "-aet", "MOVESCU", "-aec", PacsStore.AE, "-aem",
                destination, "127.0.0.1", PacsStore.dicomPort(), keyArgs(keys)));
    }

    private static List<String> keyArgs(String... keys) {
        List<String> args = new ArrayList<>();
        for (String k : keys) {
            args.add("-k");
            args.add(k);
        }
        return args;
    }

    /** How many C-FIND matches the verbose findscu output shows. */
    public static int matches(Command.Result find) {
        return (int) find.output().lines().filter(l -> l.contains("Find Response:") && l.contains("(Pending)"))
                .count();
    }
}
