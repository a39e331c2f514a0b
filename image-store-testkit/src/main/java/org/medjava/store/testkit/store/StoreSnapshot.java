package org.medjava.store.testkit.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * What a store holds, to compare before and after a test that must change nothing: every file under the data
 * directory's {@code images/} with its SHA-256, and every index row (studies, their series, their instances, as the
 * index API lists them).
 *
 * @param files       relative path to SHA-256
 * @param indexRows   the index's rows as the API writes them, in a stable order
 */
public record StoreSnapshot(Map<String, String> files, List<String> indexRows) {

    private static final Pattern STUDY = Pattern.compile("\"StudyInstanceUID\":\"([^\"]+)\"");
    private static final Pattern SERIES = Pattern.compile("\"SeriesInstanceUID\":\"([^\"]+)\"");

    public static StoreSnapshot take(PayaraStore store, StoreClient admin) throws IOException, InterruptedException {
        return new StoreSnapshot(files(store.dataDir().resolve("images")), indexRows(admin));
    }

    private static Map<String, String> files(Path images) throws IOException {
        Map<String, String> files = new TreeMap<>();
        if (!Files.isDirectory(images)) {
            return files;
        }
        try (Stream<Path> walk = Files.walk(images)) {
            for (Path p : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                files.put(images.relativize(p).toString(), sha256(p));
            }
        }
        return files;
    }

    private static List<String> indexRows(StoreClient admin) throws IOException, InterruptedException {
        List<String> rows = new ArrayList<>();
        String studies = ok(admin.getJson("/index/studies?limit=0"));
        rows.add(studies);
        for (String study : all(STUDY, studies)) {
            String series = ok(admin.getJson("/index/studies/" + study + "/series?limit=0"));
            rows.add(series);
            for (String s : all(SERIES, series)) {
                rows.add(ok(admin.getJson("/index/series/" + s + "/instances?limit=0")));
            }
        }
        return rows;
    }

    private static String ok(HttpResponse<String> r) {
        if (r.statusCode() != 200) {
            throw new IllegalStateException("index listing answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    private static List<String> all(Pattern p, String text) {
        List<String> found = new ArrayList<>();
        Matcher m = p.matcher(text);
        while (m.find()) {
            if (!found.contains(m.group(1))) {
                found.add(m.group(1));
            }
        }
        return found;
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[65536];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
