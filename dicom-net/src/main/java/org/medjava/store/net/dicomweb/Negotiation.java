package org.medjava.store.net.dicomweb;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.transcode.TransferSyntaxes;

/**
 * Chooses how to answer a DICOMweb request from its Accept header and the forms the resource has (PS3.18 8.7.3,
 * 8.7.7; RFC 9110 12.5.1). Each form gets the weight of the most specific range that covers it; the heaviest form
 * the store can send wins, ties going to the resource's own order (stored bytes before converted ones, multipart
 * before single part).
 *
 * <p>How a range covers a form: {@code *}{@code /*} covers every form; {@code multipart/related} (or
 * {@code multipart/*}) covers the multipart forms whose part type its {@code type} parameter names (absent, or
 * {@code *}{@code /*}: any; {@code image/*}: the images); any other range covers the single-part forms of its
 * type, so a single-part type asked of a study or of several frames covers nothing (PS3.18 10.4.4).
 * {@code transfer-syntax=*} is any syntax; a UID is that syntax; no parameter is any syntax, except for
 * {@code application/octet-stream}, whose default is Explicit VR Little Endian (uncompressed). Parameter values
 * are compared without regard to quotes; {@code image/x-jls}, {@code image/x-dicom-rle} are the older names.
 */
public final class Negotiation {

    private static final Map<String, String> ALIASES = Map.of("image/x-jls", "image/jls",
            "image/x-dicom-rle", "image/dicom-rle", "image/dicom+jpeg", "image/jpeg");
    static final String OCTET_STREAM = "application/octet-stream";

    private Negotiation() {
    }

    /**
     * The form to send.
     *
     * @param what what the resource is, for the 406 message ("frame 1 of instance ...")
     * @throws StoreException 406 naming why the wanted forms cannot be sent and which ones can
     */
    public static Representation choose(AcceptHeader accept, List<Representation> forms, String what) {
        Representation best = null;
        double bestQ = 0;
        Representation refused = null;
        for (Representation form : forms) {
            double q = weight(accept, form);
            if (q <= 0) {
                continue;
            }
            if (!form.available()) {
                refused = refused == null ? form : refused;
            } else if (q > bestQ) {
                best = form;
                bestQ = q;
            }
        }
        if (best != null) {
            return best;
        }
        Set<String> offered = new LinkedHashSet<>();
        forms.stream().filter(Representation::available).map(Representation::describe).forEach(offered::add);
        if (refused != null) {
            String can = offered.isEmpty() ? "" : "; " + what + " can be sent as " + String.join(", or ", offered);
            throw new StoreException(StoreException.Kind.NOT_ACCEPTABLE, refused.whyNot() + can);
        }
        throw new StoreException(StoreException.Kind.NOT_ACCEPTABLE, what + " cannot be sent as Accept: " + accept
                + " asks" + (offered.isEmpty() ? "" : "; it can be sent as " + String.join(", or ", offered)));
    }

    /**
     * The media type of a DICOM JSON answer (QIDO-RS, metadata, STOW-RS): {@code application/dicom+json}, or
     * {@code application/json} for clients that ask for that alone.
     */
    public static String json(AcceptHeader accept, String what) {
        return choose(accept, JSON_FORMS, what).mediaType();
    }

    private static final List<Representation> JSON_FORMS = List.of(Representation.single("application/dicom+json"),
            Representation.single("application/json"));

    /** The weight the header gives a form: that of the most specific range covering it, 0 when none does. */
    static double weight(AcceptHeader accept, Representation form) {
        int bestSpecificity = -1;
        double q = 0;
        for (MediaRange range : accept.ranges()) {
            int s = specificity(range, form);
            if (s >= 0 && (s > bestSpecificity || (s == bestSpecificity && range.quality() > q))) {
                bestSpecificity = s;
                q = range.quality();
            }
        }
        return q;
    }

    /** How specifically {@code range} names {@code form}: -1 when it does not cover it, 0 for a wildcard. */
    static int specificity(MediaRange range, Representation form) {
        if (range.isWildcard()) {
            return 0;
        }
        String named;
        int s;
        if (range.isMultipart()) {
            if (!form.multipart() || !range.matches("multipart/related")) {
                return -1;
            }
            named = range.param("type");
            s = range.type().endsWith("/*") ? 1 : 2;
            if (named != null && !named.equals("*/*") && !named.equals("*")) {
                named = ALIASES.getOrDefault(named, named);
                if (!MediaRange.covers(named, form.mediaType())) {
                    return -1;
                }
                s += named.endsWith("/*") ? 1 : 2;
            } else {
                named = null;
            }
        } else {
            named = ALIASES.getOrDefault(range.type(), range.type());
            if (form.multipart() || !MediaRange.covers(named, form.mediaType())) {
                return -1;
            }
            s = named.endsWith("/*") ? 1 : 2;
        }
        String ts = range.param("transfer-syntax");
        if (ts == null) {
            boolean uncompressedByDefault = OCTET_STREAM.equals(named);
            return !uncompressedByDefault || TransferSyntaxes.EXPLICIT_LE.equals(form.transferSyntax()) ? s : -1;
        }
        if (ts.equals("*")) {
            return s + 1;
        }
        return ts.equals(form.transferSyntax()) ? s + 2 : -1;
    }
}
