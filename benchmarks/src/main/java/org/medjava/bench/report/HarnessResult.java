package org.medjava.bench.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.medjava.bench.setup.ImageSize;
import org.medjava.bench.variant.Impl;

/**
 * One line of the paired harness ({@code raw/c-harness.csv}): a C port timed in pure C ({@code jni == false}) or
 * through JNI with the same loop, keyed like the JMH C columns.
 */
public record HarnessResult(boolean jni, String filter, ImageSize size, Impl impl, int runs, double meanMs,
                            double minMs) {

    public static List<HarnessResult> read(Path file) throws IOException {
        List<HarnessResult> list = new ArrayList<>();
        for (Map<String, String> row : Csv.read(file)) {
            String id = "c-" + row.get("impl") + "-" + row.get("build");
            list.add(new HarnessResult("jni".equals(row.get("via")), row.get("filter"),
                    new ImageSize(Integer.parseInt(row.get("width")), Integer.parseInt(row.get("height"))),
                    Impl.parse(id), Integer.parseInt(row.get("runs")), Double.parseDouble(row.get("mean_ms")),
                    Double.parseDouble(row.get("min_ms"))));
        }
        return list;
    }
}
