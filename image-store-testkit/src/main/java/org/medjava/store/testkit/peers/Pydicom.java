package org.medjava.store.testkit.peers;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.medjava.store.testkit.Command;

/** pydicom as an independent reader of what the store wrote: a python3 that has it, and what it reads of a file. */
public final class Pydicom {

    private Pydicom() {
    }

    /** A python3 that has pydicom (the one on the PATH, else Debian's), or null. */
    public static String python() {
        for (String python : List.of("python3", "/usr/bin/python3")) {
            try {
                if (Command.run(List.of(python, "-c", "import pydicom; print('ok')")).output().startsWith("ok")) {
                    return python;
                }
            } catch (Exception e) {
                // not there: the next one
            }
        }
        return null;
    }

    /**
     * What pydicom reads of a file: each of {@code keywords} ({@code keyword=value}, empty when absent),
     * {@code TransferSyntaxUID}, {@code PixelDataSHA256} (of the Pixel Data value as stored), and whatever
     * {@code moreLines} (Python, with the dataset as {@code ds}) print as {@code key=value}.
     */
    public static Map<String, String> describe(String python, Path file, List<String> keywords, String... moreLines)
            throws Exception {
        List<String> script = new ArrayList<>(List.of(
                "import sys, hashlib, pydicom",
                "ds = pydicom.dcmread(sys.argv[1])",
                "def v(k): return str(ds.get(k, '')).strip()",
                "for k in sys.argv[2:]:",
                "    print(k + '=' + v(k))",
                "print('TransferSyntaxUID=' + str(ds.file_meta.TransferSyntaxUID))",
                "print('PixelDataSHA256=' + hashlib.sha256(ds.PixelData).hexdigest())"));
        script.addAll(List.of(moreLines));
        List<String> command = new ArrayList<>(List.of(python, "-c", String.join("\n", script), file.toString()));
        command.addAll(keywords);
        Command.Result r = Command.run(command).assertOk();
        Map<String, String> values = new HashMap<>();
        for (String line : r.output().split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                values.put(line.substring(0, eq), line.substring(eq + 1).strip());
            }
        }
        return values;
    }
}
