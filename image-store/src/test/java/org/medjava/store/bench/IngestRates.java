package org.medjava.store.bench;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.TagFromName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.medjava.store.testsupport.Command;
import org.medjava.store.testsupport.Orthanc;
import org.medjava.store.testsupport.PayaraStore;
import org.medjava.store.testsupport.Ports;
import org.medjava.store.testsupport.Samples;
import org.medjava.store.testsupport.TestStudy;

/**
 * Ingest rates, instances per second, of the store and of Orthanc on this machine with the same files: C-STORE
 * (DCMTK storescu with TCP_NODELAY=1, one association per sender) and STOW-RS (the JDK's HTTP client, one instance
 * per request over a keep-alive connection per sender), with 1 and 4 parallel senders. Each run sends its own copies
 * of CT_small (39 KB, explicit VR little endian) with new UIDs, after an untimed warm-up of {@value #WARM_UP} instances
 * (the store's steady state, as a server that has run for a while; Orthanc gets the same); each figure is the median
 * of {@value #ROUNDS} runs, the two servers taking turns so that both meet the same load on a shared machine. A
 * measuring tool, not a test: run it with {@code image-store/src/test/scripts/ingest-rates.sh [instances per run]};
 * nothing is asserted.
 */
public final class IngestRates {

    private static final String BOUNDARY = "ingest-rates-boundary";
    /** Instances sent before each protocol is measured: by then the store's JIT has compiled its hot paths. */
    private static final int WARM_UP = 1000;
    /** Measured runs per target and configuration, taken in turns; the median is reported. */
    private static final int ROUNDS = 3;

    private record Target(String name, String dicomAe, int dicomPort, String stowUrl, String authorization) {
    }

    private IngestRates() {
    }

    public static void main(String[] args) throws Exception {
        int perRun = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Path work = Files.createTempDirectory("ingest-rates-");
        int storeDicom = Ports.free();
        int orthancDicom = Ports.free();
        int orthancHttp = Ports.free();
        byte[] template = Files.readAllBytes(Samples.dicom("CT_small.dcm"));
        try (PayaraStore store = PayaraStore.named("ingest-rates")
                .property("medjava.dicom.port", Integer.toString(storeDicom))
                .property("medjava.dicom.bind", "127.0.0.1")
                .property("medjava.dicom.allowed-aets", "STORESCU").start()) {
            Orthanc orthanc = Orthanc.start(work.resolve("orthanc"), "ORTHANC", orthancDicom, orthancHttp,
                    new Orthanc.Peer("MEDJAVA", storeDicom, store.uri("/dicomweb/").toString(), "admin",
                            PayaraStore.ADMIN_PASSWORD));
            try {
                List<Target> targets = List.of(
                        new Target("MedJava store", "MEDJAVA", storeDicom, store.uri("/dicomweb/studies").toString(),
                                PayaraStore.admin()),
                        new Target("Orthanc 1.10", "ORTHANC", orthancDicom, orthanc.uri("/dicom-web/studies")
                                .toString(), null));
                StringBuilder table = new StringBuilder("| protocol | senders | " + targets.get(0).name() + " | "
                        + targets.get(1).name() + " | ratio |\n|---|---|---|---|---|\n");
                for (boolean stow : new boolean[] {false, true}) {
                    for (Target t : targets) {
                        // warm-up, not reported: the store's JIT compiles its hot paths (a long-running server's
                        // steady state); Orthanc gets the same
                        run(t, stow, 4, WARM_UP, template, work);
                    }
                    for (int senders : new int[] {1, 4}) {
                        // the two servers in turns, one right after the other, so that both meet the same machine
                        // load; the median of the rounds
                        double[][] rates = new double[targets.size()][ROUNDS];
                        for (int round = 0; round < ROUNDS; round++) {
                            for (int i = 0; i < targets.size(); i++) {
                                rates[i][round] = perRun / run(targets.get(i), stow, senders, perRun, template, work);
                            }
                        }
                        double ours = median(rates[0]);
                        double theirs = median(rates[1]);
                        table.append(String.format(Locale.ROOT, "| %s | %d | %.0f | %.0f | %.2f |%n",
                                stow ? "STOW-RS" : "C-STORE", senders, ours, theirs, ours / theirs));
                    }
                }
                System.out.println("\nIngest rates (instances/s), " + Runtime.getRuntime().availableProcessors()
                        + " CPUs, " + System.getProperty("java.version") + ", " + perRun + " copies of CT_small.dcm (39 KB)"
                        + " per run:\n\n" + table);
            } finally {
                orthanc.close();
                orthanc.deleteFiles();
            }
        }
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    /** Sends {@code count} new instances from {@code senders} senders at once; returns the seconds it took. */
    private static double run(Target t, boolean stow, int senders, int count, byte[] template, Path work)
            throws Exception {
        String study = TestStudy.newUid();
        Path dir = Files.createDirectories(work.resolve(study));
        List<List<Path>> shares = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            shares.add(new ArrayList<>());
        }
        String series = TestStudy.newUid();
        for (int i = 0; i < count; i++) {
            Path f = dir.resolve(i + ".dcm");
            Files.write(f, copy(template, study, series, TestStudy.newUid()));
            shares.get(i % senders).add(f);
        }
        ExecutorService pool = Executors.newFixedThreadPool(senders);
        long t0 = System.nanoTime();
        List<Future<Void>> done = new ArrayList<>();
        for (List<Path> share : shares) {
            done.add(pool.submit(() -> {
                if (stow) {
                    stow(t, share);
                } else {
                    // TCP_NODELAY=1: without it DCMTK keeps Nagle's algorithm and every C-STORE waits ~40 ms
                    Command.run(Command.of("storescu", "-aet", "STORESCU", "-aec", t.dicomAe(), "127.0.0.1",
                            t.dicomPort(), share), null, 600, java.util.Map.of("TCP_NODELAY", "1")).assertOk();
                }
                return null;
            }));
        }
        for (Future<Void> f : done) {
            f.get();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        pool.shutdown();
        return seconds;
    }

    private static void stow(Target t, List<Path> files) throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        for (Path f : files) {
            HttpRequest.Builder rq = HttpRequest.newBuilder(URI.create(t.stowUrl())).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "multipart/related; type=\"application/dicom\"; boundary=" + BOUNDARY)
                    .header("Accept", "application/dicom+json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(part(Files.readAllBytes(f))));
            if (t.authorization() != null) {
                rq.header("Authorization", t.authorization());
            }
            HttpResponse<String> r = http.send(rq.build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IOException(t.name() + " STOW-RS answered " + r.statusCode() + ": " + r.body());
            }
        }
    }

    private static byte[] part(byte[] file) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(file.length + 200);
        out.writeBytes(("--" + BOUNDARY + "\r\nContent-Type: application/dicom\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(file);
        out.writeBytes(("\r\n--" + BOUNDARY + "--\r\n").getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }

    /** The template with new study, series and SOP Instance UIDs (pixel data and syntax untouched). */
    private static byte[] copy(byte[] template, String study, String series, String sop) throws IOException,
            DicomException {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        list.read(new com.pixelmed.dicom.DicomInputStream(new java.io.ByteArrayInputStream(template)));
        set(list, TagFromName.StudyInstanceUID, study);
        set(list, TagFromName.SeriesInstanceUID, series);
        set(list, TagFromName.SOPInstanceUID, sop);
        set(list, TagFromName.MediaStorageSOPInstanceUID, sop);
        ByteArrayOutputStream out = new ByteArrayOutputStream(template.length + 256);
        list.write(out, Attribute.getSingleStringValueOrEmptyString(list, TagFromName.TransferSyntaxUID), true,
                true);
        return out.toByteArray();
    }

    private static void set(AttributeList list, AttributeTag tag, String value) throws DicomException {
        Attribute a = list.get(tag);
        a.removeValues();
        a.addValue(value);
    }
}
