package org.medjava.store.net.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.SOPClass;
import com.pixelmed.dicom.SOPClassDescriptions;
import com.pixelmed.dicom.TransferSyntax;
import com.pixelmed.network.PresentationContext;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.query.QueryLevel;
import org.medjava.store.core.transcode.TransferSyntaxes;
import org.medjava.store.net.dimse.ScpAcceptance;
import org.medjava.store.net.scu.RetrieveScu;

/**
 * The tables of docs/dicom-conformance.md are what the code says: the SOP classes and transfer syntaxes the SCP
 * accepts (asked of its presentation-context policy, one proposal at a time, as a peer would), the C-FIND keys the
 * index matches at each level, and the contexts the SCU proposes. Each table sits between
 * {@code <!-- generated:NAME -->} and {@code <!-- end:NAME -->}; the prose around them is written by hand.
 *
 * <p>When the code changes, regenerate the tables (the test fails until then, naming the table that differs):
 * {@code mvn -B -ntp -o -q -pl dicom-net -am test -Dtest=ConformanceStatementTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dconformance.write=true}
 */
class ConformanceStatementTest {

    static final Path DOC = Path.of(System.getProperty("medjava.root", "..")).resolve("docs/dicom-conformance.md");
    private static final Pattern BLOCK = Pattern.compile(
            "(<!-- generated:([a-z-]+) -->\\n)(.*?)(<!-- end:\\2 -->)", Pattern.DOTALL);

    @Test
    void theConformanceStatementSaysWhatTheCodeDoes() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        Map<String, String> tables = tables();
        Matcher m = BLOCK.matcher(doc);
        StringBuilder regenerated = new StringBuilder();
        List<String> found = new ArrayList<>();
        List<String> differing = new ArrayList<>();
        while (m.find()) {
            String name = m.group(2);
            found.add(name);
            String table = tables.get(name);
            assertThat(table).as("docs/dicom-conformance.md has a generated block \"" + name
                    + "\" the generator does not know").isNotNull();
            if (!table.equals(m.group(3))) {
                differing.add(name);
            }
            m.appendReplacement(regenerated, Matcher.quoteReplacement(m.group(1) + table + m.group(4)));
        }
        m.appendTail(regenerated);
        assertThat(found).as("generated blocks in docs/dicom-conformance.md")
                .containsExactlyInAnyOrderElementsOf(tables.keySet());
        if (Boolean.getBoolean("conformance.write")) {
            Files.writeString(DOC, regenerated.toString(), StandardCharsets.UTF_8);
            return;
        }
        assertThat(differing).as("tables of docs/dicom-conformance.md that no longer match the code; regenerate "
                + "them with -Dconformance.write=true (see ConformanceStatementTest)").isEmpty();
    }

    /** Every generated table, by block name. */
    static Map<String, String> tables() {
        Map<String, String> t = new LinkedHashMap<>();
        Map<List<String>, List<String>> storageBySyntaxes = new LinkedHashMap<>();
        List<String> services = new ArrayList<>();
        for (String sopClass : ScpAcceptance.knownSopClasses()) {
            List<String> accepted = ScpAcceptance.acceptedTransferSyntaxes(sopClass);
            if (accepted.isEmpty()) {
                continue;
            }
            if (SOPClass.isStorage(sopClass)) {
                storageBySyntaxes.computeIfAbsent(accepted, k -> new ArrayList<>()).add(sopClass);
            } else {
                services.add(sopClass);
            }
        }
        t.put("scp-services", servicesTable(services));
        long candidates = ScpAcceptance.knownSopClasses().stream().filter(SOPClass::isStorage).count();
        t.put("scp-storage", storageTable(storageBySyntaxes, candidates));
        t.put("find-keys", findKeysTable());
        t.put("scu-contexts", scuContextsTable());
        t.put("conversions", conversionsTable(ScpAcceptance.acceptedTransferSyntaxes(SOPClass.CTImageStorage)));
        return t;
    }

    private static String servicesTable(List<String> services) {
        StringBuilder b = new StringBuilder("| SOP class | UID | role | transfer syntaxes |\n|---|---|---|---|\n");
        for (String s : services) {
            b.append("| ").append(name(s)).append(" | ").append(s).append(" | SCP | ")
                    .append(String.join(", ", ScpAcceptance.acceptedTransferSyntaxes(s).stream()
                            .map(ConformanceStatementTest::tsName).toList())).append(" |\n");
        }
        return b.toString();
    }

    private static String storageTable(Map<List<String>, List<String>> bySyntaxes, long candidates) {
        StringBuilder b = new StringBuilder();
        char group = 'A';
        StringBuilder legend = new StringBuilder("| group | transfer syntaxes accepted (the first the caller "
                + "proposes in a context is taken) |\n|---|---|\n");
        StringBuilder classes = new StringBuilder("| SOP class | UID | role | group |\n|---|---|---|---|\n");
        for (Map.Entry<List<String>, List<String>> e : bySyntaxes.entrySet()) {
            legend.append("| ").append(group).append(" | ").append(String.join("; ", e.getKey().stream()
                    .map(ts -> tsName(ts) + " (" + ts + ")").toList())).append(" |\n");
            for (String c : e.getValue()) {
                classes.append("| ").append(name(c)).append(" | ").append(c).append(" | SCP | ").append(group)
                        .append(" |\n");
            }
            group++;
        }
        int n = bySyntaxes.values().stream().mapToInt(List::size).sum();
        b.append(n).append(" of the ").append(candidates).append(" storage SOP classes PixelMed names are accepted"
                + " (a SOP class PixelMed does not name is not listed here).\n\n").append(legend).append('\n').append(classes);
        return b.toString();
    }

    private static String findKeysTable() {
        StringBuilder b = new StringBuilder("| level | keys matched at this level (keys of the levels above may be "
                + "added) |\n|---|---|\n");
        for (QueryLevel l : QueryLevel.values()) {
            b.append("| ").append(l.name()).append(" | ").append(String.join(", ", new TreeSet<>(l.ownKeywords())))
                    .append(" |\n");
        }
        return b.toString();
    }

    private static String scuContextsTable() {
        StringBuilder b = new StringBuilder("| operation | abstract syntax | transfer syntaxes of one context |\n"
                + "|---|---|---|\n");
        for (PresentationContext pc : RetrieveScu.moveContexts(SOPClass.StudyRootQueryRetrieveInformationModelMove)) {
            row(b, "C-MOVE", pc);
        }
        for (PresentationContext pc : RetrieveScu.getContexts(SOPClass.StudyRootQueryRetrieveInformationModelGet,
                List.of(SOPClass.CTImageStorage))) {
            row(b, "C-GET (for each SOP class to retrieve; here CT Image Storage)", pc);
        }
        return b.toString();
    }

    /**
     * Which stored syntax the store can deliver in which other ({@link TransferSyntaxes#whyNot}, for data whose
     * bit depth is not known): what C-GET, C-MOVE and sends fall back to when a peer lacks the stored syntax.
     */
    private static String conversionsTable(List<String> syntaxes) {
        StringBuilder b = new StringBuilder("| stored \\ delivered |");
        StringBuilder rule = new StringBuilder("|---|");
        for (String to : syntaxes) {
            b.append(' ').append(tsName(to)).append(" |");
            rule.append("---|");
        }
        b.append('\n').append(rule).append('\n');
        for (String from : syntaxes) {
            b.append("| ").append(tsName(from)).append(" |");
            for (String to : syntaxes) {
                b.append(from.equals(to) ? " as stored |" : TransferSyntaxes.whyNot(from, to, null) == null
                        ? " yes |" : " no |");
            }
            b.append('\n');
        }
        return b.toString();
    }

    private static void row(StringBuilder b, String operation, PresentationContext pc) {
        b.append("| ").append(operation).append(" | ").append(name(pc.getAbstractSyntaxUID())).append(" | ")
                .append(String.join(", ", ((List<?>) pc.getTransferSyntaxUIDs()).stream()
                        .map(ts -> tsName(ts.toString())).toList())).append(" |\n");
    }

    private static String name(String uid) {
        String d = SOPClassDescriptions.getDescriptionFromUID(uid);
        return d == null || d.isBlank() ? uid : d;
    }

    private static String tsName(String uid) {
        String ours = TransferSyntaxes.name(uid);
        if (!ours.equals(uid)) {
            return ours;
        }
        String theirs = new TransferSyntax(uid).getDescription();
        return theirs == null || theirs.isBlank() || theirs.equals("Unrecognized") ? uid : theirs;
    }
}
