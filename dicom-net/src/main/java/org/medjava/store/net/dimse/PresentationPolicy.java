package org.medjava.store.net.dimse;

import com.pixelmed.dicom.SOPClass;
import com.pixelmed.network.PresentationContext;
import com.pixelmed.network.PresentationContextSelectionPolicy;
import org.medjava.store.core.ingest.DicomRules;
import java.util.LinkedList;
import java.util.List;
import java.util.Set;
import org.medjava.store.core.transcode.TransferSyntaxes;

/**
 * Which presentation contexts the store accepts (PS3.8 9.3.3.2 result/reason): Verification; every storage SOP
 * class the store keeps ({@link DicomRules#isKept}: images, structured reports, RT, waveforms, presentation states,
 * encapsulated documents, …), in the transfer syntaxes the store keeps, choosing the first one the caller proposes
 * (so objects are stored as sent) — on a C-GET association the first one the store can convert anything to without
 * loss (uncompressed, RLE, JPEG Lossless SV1, JPEG-LS and JPEG 2000 lossless, HTJ2K lossless), if the caller
 * proposes one; Study Root and Patient
 * Root C-FIND, C-MOVE and C-GET in an uncompressed syntax. Anything else is
 * refused in negotiation: "abstract syntax not supported" (3) or "transfer syntaxes not supported" (4).
 */
final class PresentationPolicy implements PresentationContextSelectionPolicy {

    static final String IMPLICIT_LE = "1.2.840.10008.1.2";
    static final String EXPLICIT_LE = "1.2.840.10008.1.2.1";
    static final String EXPLICIT_BE = "1.2.840.10008.1.2.2";
    static final String DEFLATED = "1.2.840.10008.1.2.1.99";

    private static final byte ACCEPTANCE = 0;
    private static final byte ABSTRACT_SYNTAX_NOT_SUPPORTED = 3;
    private static final byte TRANSFER_SYNTAXES_NOT_SUPPORTED = 4;

    /**
     * What the store keeps: uncompressed, deflated, RLE, JPEG, JPEG-LS, JPEG 2000 and HTJ2K (as the HTTP upload
     * does).
     */
    static final Set<String> STORABLE = Set.of(IMPLICIT_LE, EXPLICIT_LE, EXPLICIT_BE, DEFLATED,
            "1.2.840.10008.1.2.5", "1.2.840.10008.1.2.4.50", "1.2.840.10008.1.2.4.51", "1.2.840.10008.1.2.4.57",
            "1.2.840.10008.1.2.4.70", "1.2.840.10008.1.2.4.80", "1.2.840.10008.1.2.4.81", "1.2.840.10008.1.2.4.90",
            "1.2.840.10008.1.2.4.91", TransferSyntaxes.HTJ2K_LOSSLESS, TransferSyntaxes.HTJ2K_RPCL_LOSSLESS,
            TransferSyntaxes.HTJ2K);
    private static final Set<String> UNCOMPRESSED = Set.of(EXPLICIT_LE, IMPLICIT_LE, EXPLICIT_BE);
    /** What the store can send any object it decodes in, without loss: uncompressed and its lossless encoders. */
    private static final Set<String> SERVABLE_FROM_ANY = servableFromAny();

    private static Set<String> servableFromAny() {
        Set<String> s = new java.util.HashSet<>(TransferSyntaxes.NATIVE);
        s.addAll(TransferSyntaxes.LOSSLESS_ENCODED);
        s.addAll(TransferSyntaxes.HTJ2K_ENCODED);
        return Set.copyOf(s);
    }

    @Override
    public LinkedList applyPresentationContextSelectionPolicy(LinkedList contexts, int associationNumber,
            int debugLevel) {
        return applyPresentationContextSelectionPolicy(contexts, associationNumber);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public LinkedList applyPresentationContextSelectionPolicy(LinkedList contexts, int associationNumber) {
        boolean retrieve = false;
        for (Object o : contexts) {
            String as = ((PresentationContext) o).getAbstractSyntaxUID();
            retrieve |= SOPClass.isStudyRootCompositeInstanceRetrieveWithGet(as)
                    || SOPClass.isPatientRootCompositeInstanceRetrieveWithGet(as);
        }
        for (Object o : contexts) {
            select((PresentationContext) o, retrieve);
        }
        return contexts;
    }

    /**
     * @param retrieve whether the association asks for C-GET: its storage contexts then carry what the store sends,
     *                 so a syntax the store can convert any decodable object to losslessly comes first
     */
    private static void select(PresentationContext pc, boolean retrieve) {
        String as = pc.getAbstractSyntaxUID();
        Set<String> acceptable;
        if (DicomRules.isKept(as)) { // every storage SOP class the ingest rules keep
            acceptable = STORABLE;
        } else if (isService(as)) {
            acceptable = UNCOMPRESSED;
        } else {
            pc.setResultReason(ABSTRACT_SYNTAX_NOT_SUPPORTED);
            return;
        }
        String chosen = retrieve && acceptable == STORABLE ? firstAcceptable(pc.getTransferSyntaxUIDs(),
                SERVABLE_FROM_ANY) : null;
        if (chosen == null) {
            chosen = firstAcceptable(pc.getTransferSyntaxUIDs(), acceptable);
        }
        pc.newTransferSyntaxUIDs();
        if (chosen == null) {
            pc.setResultReason(TRANSFER_SYNTAXES_NOT_SUPPORTED);
        } else {
            pc.addTransferSyntaxUID(chosen);
            pc.setResultReason(ACCEPTANCE);
        }
    }

    static boolean isService(String sopClass) {
        return SOPClass.isVerification(sopClass)
                || SOPClass.isStudyRootCompositeInstanceQuery(sopClass)
                || SOPClass.isPatientRootCompositeInstanceQuery(sopClass)
                || SOPClass.isStudyRootCompositeInstanceRetrieveWithMove(sopClass)
                || SOPClass.isPatientRootCompositeInstanceRetrieveWithMove(sopClass)
                || SOPClass.isStudyRootCompositeInstanceRetrieveWithGet(sopClass)
                || SOPClass.isPatientRootCompositeInstanceRetrieveWithGet(sopClass);
    }

    private static String firstAcceptable(List<?> proposed, Set<String> acceptable) {
        for (Object ts : proposed) {
            if (ts != null && acceptable.contains(ts.toString().trim())) {
                return ts.toString().trim();
            }
        }
        return null;
    }
}
