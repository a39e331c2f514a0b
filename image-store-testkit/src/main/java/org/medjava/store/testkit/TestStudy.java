package org.medjava.store.testkit;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A study made for one test from the committed samples: copies with new, unique Study, Series and SOP Instance UIDs
 * and the given Patient ID, written by DCMTK's dcmodify (which leaves the pixel data and transfer syntax alone).
 * Each sample becomes one instance in a series of its own.
 */
public final class TestStudy {

    private static final SecureRandom RANDOM = new SecureRandom();
    /** The storescu option that proposes each compressed transfer syntax as it is. */
    private static final Map<String, String> STORESCU_FLAG = Map.of(
            "1.2.840.10008.1.2.1.99", "-xd", "1.2.840.10008.1.2.5", "-xr", "1.2.840.10008.1.2.4.50", "-xy",
            "1.2.840.10008.1.2.4.51", "-xx", "1.2.840.10008.1.2.4.57", "-xs", "1.2.840.10008.1.2.4.70", "-xs",
            "1.2.840.10008.1.2.4.80", "-xt", "1.2.840.10008.1.2.4.81", "-xu", "1.2.840.10008.1.2.4.90", "-xv",
            "1.2.840.10008.1.2.4.91", "-xw");

    /** A line of dcmdump's output for a UID of the meta information: {@code (0002,0010) UI [1.2.840...]}. */
    private static final Pattern META_UID = Pattern.compile("^\\((0002,00(?:02|10))\\) UI \\[([0-9.]+)\\]",
            Pattern.MULTILINE);

    /** One instance: its file, the sample it came from, its UIDs and transfer syntax. */
    public record Instance(Path file, String sample, String seriesUid, String sopInstanceUid, String sopClassUid,
                           String transferSyntaxUid) {
        /** The storescu options that send it in its own transfer syntax. */
        public List<String> storescuOptions() {
            String flag = STORESCU_FLAG.get(transferSyntaxUid);
            return flag == null ? List.of() : List.of(flag, "-R");
        }
    }

    private final String patientId;
    private final String studyUid;
    private final List<Instance> instances;

    private TestStudy(String patientId, String studyUid, List<Instance> instances) {
        this.patientId = patientId;
        this.studyUid = studyUid;
        this.instances = List.copyOf(instances);
    }

    /** A new UID under 2.25 (a UUID-sized random number). */
    public static String newUid() {
        return "2.25." + new BigInteger(122, RANDOM);
    }

    public static TestStudy create(Path dir, String patientId, String... samples) throws IOException,
            InterruptedException {
        return create(dir, patientId, java.util.Arrays.stream(samples).map(Samples::dicom).toList());
    }

    /** A study of copies of {@code files} (any DICOM files; each instance's sample is its file name). */
    public static TestStudy create(Path dir, String patientId, List<Path> files) throws IOException,
            InterruptedException {
        Files.createDirectories(dir);
        String studyUid = newUid();
        List<Instance> instances = new ArrayList<>();
        for (Path source : files) {
            String sample = source.getFileName().toString();
            String seriesUid = newUid();
            String sopUid = newUid();
            Path file = dir.resolve(sopUid + ".dcm");
            Files.copy(source, file);
            Command.run(Command.of("dcmodify", "-nb", "-m", "(0010,0020)=" + patientId, "-m",
                    "(0020,000D)=" + studyUid, "-m", "(0020,000E)=" + seriesUid, "-m", "(0008,0018)=" + sopUid,
                    file)).assertOk();
            Map<String, String> meta = metaInformation(file);
            instances.add(new Instance(file, sample, seriesUid, sopUid, meta.get("0002,0002"),
                    meta.get("0002,0010")));
        }
        return new TestStudy(patientId, studyUid, instances);
    }

    /**
     * The SOP class and transfer syntax UIDs of a file's meta information, as DCMTK's dcmdump reads them (keyed
     * {@code 0002,0002} and {@code 0002,0010}): the same tool that wrote the file, and no store code under test.
     */
    private static Map<String, String> metaInformation(Path file) throws IOException, InterruptedException {
        String dump = Command.run(Command.of("dcmdump", "-q", "-M", "-Un", "+P", "0002,0002", "+P", "0002,0010",
                file)).assertOk().output();
        Map<String, String> uids = new java.util.HashMap<>();
        Matcher m = META_UID.matcher(dump);
        while (m.find()) {
            uids.put(m.group(1), m.group(2));
        }
        if (uids.size() != 2) {
            throw new IOException(file + " has no SOP class or transfer syntax in its meta information:\n" + dump);
        }
        return uids;
    }

    public String patientId() {
        return patientId;
    }

    public String studyUid() {
        return studyUid;
    }

    public List<Instance> instances() {
        return instances;
    }

    public Instance instance(String sample) {
        return instances.stream().filter(i -> i.sample().equals(sample)).findFirst().orElseThrow();
    }

    /** Where the store keeps an instance of this study received over the network, relative to its images/. */
    public String storePath(Instance i) {
        return "dicom/" + patientId + "/" + studyUid + "/" + i.seriesUid() + "/" + i.sopInstanceUid() + ".dcm";
    }
}
