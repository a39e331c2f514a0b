package org.medjava.store.net.dimse;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.network.PresentationContext;
import java.util.LinkedList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which presentation contexts the SCP accepts, and in which transfer syntax. */
class PresentationPolicyTest {

    private static final String CT = "1.2.840.10008.5.1.4.1.1.2";
    private static final String RT_PLAN = "1.2.840.10008.5.1.4.1.1.481.5";
    private static final String STUDY_ROOT_FIND = "1.2.840.10008.5.1.4.1.2.2.1";
    private static final String JPEG_LS = "1.2.840.10008.1.2.4.80";
    private static final String MPEG2 = "1.2.840.10008.1.2.4.100";

    private static PresentationContext select(String abstractSyntax, String... transferSyntaxes) {
        LinkedList<String> ts = new LinkedList<>(List.of(transferSyntaxes));
        PresentationContext pc = new PresentationContext((byte) 1, abstractSyntax, ts);
        LinkedList<PresentationContext> contexts = new LinkedList<>(List.of(pc));
        new PresentationPolicy().applyPresentationContextSelectionPolicy(contexts, 1);
        return pc;
    }

    @Test
    void storageKeepsTheFirstProposedSyntaxTheStoreKeeps() {
        PresentationContext pc = select(CT, MPEG2, JPEG_LS, PresentationPolicy.EXPLICIT_LE);
        assertThat(pc.getResultReason()).isEqualTo((byte) 0);
        assertThat(pc.getTransferSyntaxUIDs()).containsExactly(JPEG_LS);
    }

    @Test
    void onACGetAssociationTheFirstSyntaxTheStoreConvertsAnythingToWithoutLossComesFirst() {
        String get = "1.2.840.10008.5.1.4.1.2.2.3"; // Study Root C-GET
        String jpegBaseline = "1.2.840.10008.1.2.4.50";
        String jpegLossless = "1.2.840.10008.1.2.4.70";
        PresentationContext storage = new PresentationContext((byte) 1, CT,
                new LinkedList<>(List.of(jpegBaseline, MPEG2, jpegLossless, PresentationPolicy.EXPLICIT_LE)));
        PresentationContext onlyLossy = new PresentationContext((byte) 3, CT, new LinkedList<>(List.of(jpegBaseline)));
        PresentationContext retrieve = new PresentationContext((byte) 5, get,
                new LinkedList<>(List.of(PresentationPolicy.EXPLICIT_LE)));
        new PresentationPolicy().applyPresentationContextSelectionPolicy(
                new LinkedList<>(List.of(storage, onlyLossy, retrieve)), 1);

        assertThat(storage.getTransferSyntaxUIDs()).containsExactly(jpegLossless);
        assertThat(onlyLossy.getTransferSyntaxUIDs()).containsExactly(jpegBaseline); // serves what is stored so
        assertThat(retrieve.getResultReason()).isZero();
    }

    /** HTJ2K objects are kept as sent; a C-GET peer that asks for HTJ2K Lossless gets any object in it. */
    @Test
    void htj2kIsTakenForStorageAndForAGetThatAsksForIt() {
        for (String htj2k : new String[] {"1.2.840.10008.1.2.4.201", "1.2.840.10008.1.2.4.202",
                "1.2.840.10008.1.2.4.203"}) {
            assertThat(select(CT, MPEG2, htj2k, PresentationPolicy.EXPLICIT_LE).getTransferSyntaxUIDs()).as(htj2k)
                    .containsExactly(htj2k);
        }
        String rpcl = "1.2.840.10008.1.2.4.202";
        PresentationContext storage = new PresentationContext((byte) 1, CT,
                new LinkedList<>(List.of("1.2.840.10008.1.2.4.50", rpcl, PresentationPolicy.EXPLICIT_LE)));
        PresentationContext retrieve = new PresentationContext((byte) 3, "1.2.840.10008.5.1.4.1.2.2.3",
                new LinkedList<>(List.of(PresentationPolicy.EXPLICIT_LE)));
        new PresentationPolicy().applyPresentationContextSelectionPolicy(
                new LinkedList<>(List.of(storage, retrieve)), 1);
        assertThat(storage.getTransferSyntaxUIDs()).containsExactly(rpcl);
    }

    @Test
    void unsupportedSyntaxesAndSopClassesAreRefusedWithTheirReasons() {
        assertThat(select(CT, MPEG2).getResultReason()).isEqualTo((byte) 4);
        assertThat(select("1.2.826.0.1.3680043.10.1385.99", PresentationPolicy.EXPLICIT_LE).getResultReason())
                .isEqualTo((byte) 3); // not a SOP class the store knows
        assertThat(select(STUDY_ROOT_FIND, JPEG_LS).getResultReason()).isEqualTo((byte) 4);
    }

    @Test
    void everyStorageSopClassIsOfferedNotOnlyImages() {
        for (String sopClass : new String[] {RT_PLAN, "1.2.840.10008.5.1.4.1.1.481.2", // RT Dose
                "1.2.840.10008.5.1.4.1.1.88.33", "1.2.840.10008.5.1.4.1.1.88.59", // Comprehensive SR, KOS
                "1.2.840.10008.5.1.4.1.1.11.1", "1.2.840.10008.5.1.4.1.1.9.1.1", // GSPS, 12-lead ECG
                "1.2.840.10008.5.1.4.1.1.104.1"}) { // PDF
            PresentationContext pc = select(sopClass, PresentationPolicy.EXPLICIT_LE);
            assertThat(pc.getResultReason()).as(sopClass).isZero();
            assertThat(pc.getTransferSyntaxUIDs()).as(sopClass).containsExactly(PresentationPolicy.EXPLICIT_LE);
        }
    }

    /** Storage classes whose objects have no patient or study are refused in negotiation, as by every door. */
    @Test
    void storageSopClassesTheStoreDoesNotKeepAreRefusedInNegotiation() {
        for (String sopClass : new String[] {"1.2.840.10008.5.1.4.39.1", "1.2.840.10008.1.3.10"}) { // palette, DICOMDIR
            assertThat(select(sopClass, PresentationPolicy.EXPLICIT_LE).getResultReason()).as(sopClass)
                    .isEqualTo((byte) 3);
            assertThat(ScpAcceptance.acceptsAbstractSyntax(sopClass)).as(sopClass).isFalse();
        }
    }

    @Test
    void servicesUseAnUncompressedSyntax() {
        PresentationContext pc = select(STUDY_ROOT_FIND, PresentationPolicy.DEFLATED, PresentationPolicy.IMPLICIT_LE);
        assertThat(pc.getResultReason()).isEqualTo((byte) 0);
        assertThat(pc.getTransferSyntaxUIDs()).containsExactly(PresentationPolicy.IMPLICIT_LE);
        assertThat(select("1.2.840.10008.1.1", PresentationPolicy.EXPLICIT_LE).getResultReason()).isZero();
    }
}
