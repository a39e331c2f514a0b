package org.medjava.store.net.dimse;

import com.pixelmed.dicom.SOPClass;
import com.pixelmed.dicom.TransferSyntax;
import com.pixelmed.network.PresentationContext;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.medjava.store.core.transcode.TransferSyntaxes;

/**
 * What the store's SCP accepts in association negotiation, found by asking its {@link PresentationPolicy} the way a
 * peer would (one proposed context at a time), so that whoever changes the policy changes the answers here too: the
 * store's SCU proposes for a C-GET what this says the store can keep, and the conformance statement is generated
 * from it.
 */
public final class ScpAcceptance {

    private ScpAcceptance() {
    }

    /** Whether the SCP accepts a context of {@code abstractSyntax} proposed with {@code transferSyntax} alone. */
    public static boolean accepts(String abstractSyntax, String transferSyntax) {
        LinkedList<PresentationContext> proposed = new LinkedList<>();
        proposed.add(new PresentationContext((byte) 1, abstractSyntax, transferSyntax));
        new PresentationPolicy().applyPresentationContextSelectionPolicy(proposed, 0);
        return proposed.getFirst().getResultReason() == 0;
    }

    /** The transfer syntaxes (of those DICOM defines, {@link #knownTransferSyntaxes}) accepted for a SOP class. */
    public static List<String> acceptedTransferSyntaxes(String abstractSyntax) {
        List<String> accepted = new ArrayList<>();
        for (String ts : knownTransferSyntaxes()) {
            if (accepts(abstractSyntax, ts)) {
                accepted.add(ts);
            }
        }
        return accepted;
    }

    /** Whether the SCP accepts {@code sopClass} in any transfer syntax. */
    public static boolean acceptsAbstractSyntax(String sopClass) {
        return !acceptedTransferSyntaxes(sopClass).isEmpty();
    }

    /**
     * The standard transfer syntaxes PixelMed names (its {@link TransferSyntax} constants), without aliases, and the
     * three HTJ2K ones, which this PixelMed (2022) predates.
     */
    public static List<String> knownTransferSyntaxes() {
        List<String> all = new ArrayList<>(uidConstants(TransferSyntax.class, "1.2.840.10008.1.2"));
        for (String htj2k : List.of(TransferSyntaxes.HTJ2K_LOSSLESS, TransferSyntaxes.HTJ2K_RPCL_LOSSLESS,
                TransferSyntaxes.HTJ2K)) {
            if (!all.contains(htj2k)) {
                all.add(htj2k);
            }
        }
        return all;
    }

    /**
     * The standard SOP classes PixelMed names (its {@link SOPClass} constants): the candidates a conformance
     * statement lists when the policy accepts them.
     */
    public static List<String> knownSopClasses() {
        return uidConstants(SOPClass.class, "1.2.840.10008.");
    }

    private static List<String> uidConstants(Class<?> holder, String prefix) {
        Set<String> uids = new LinkedHashSet<>();
        for (Field f : holder.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class) {
                try {
                    String v = (String) f.get(null);
                    if (v != null && v.startsWith(prefix)) {
                        uids.add(v);
                    }
                } catch (IllegalAccessException e) {
                    // not a readable constant: not a candidate
                }
            }
        }
        Set<String> sorted = new TreeSet<>(ScpAcceptance::compareUids);
        sorted.addAll(uids);
        return List.copyOf(sorted);
    }

    /** Numeric order of UID components (1.2.10 after 1.2.9). */
    public static int compareUids(String a, String b) {
        String[] x = a.split("\\.");
        String[] y = b.split("\\.");
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            int c = x[i].length() != y[i].length() ? Integer.compare(x[i].length(), y[i].length())
                    : x[i].compareTo(y[i]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.length, y.length);
    }
}
