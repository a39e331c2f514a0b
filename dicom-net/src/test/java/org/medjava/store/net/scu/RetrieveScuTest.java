package org.medjava.store.net.scu;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.SOPClass;
import com.pixelmed.dicom.TransferSyntax;
import com.pixelmed.dicom.UniqueIdentifierAttribute;
import com.pixelmed.dicom.UnsignedShortAttribute;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.network.PresentationContext;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.medjava.store.net.dimse.ScpAcceptance;

class RetrieveScuTest {

    private static final String CT = SOPClass.CTImageStorage;
    private static final String MR = SOPClass.MRImageStorage;

    @Test
    void aCGetProposesEverySyntaxTheStoreKeepsOneCompressedSyntaxPerContext() {
        List<PresentationContext> contexts = RetrieveScu.getContexts(SOPClass.StudyRootQueryRetrieveInformationModelGet,
                List.of(CT, MR));
        assertThat(contexts.get(0).getAbstractSyntaxUID())
                .isEqualTo(SOPClass.StudyRootQueryRetrieveInformationModelGet);
        for (String sopClass : List.of(CT, MR)) {
            List<String> proposed = new ArrayList<>();
            for (PresentationContext pc : contexts) {
                if (pc.getAbstractSyntaxUID().equals(sopClass)) {
                    List<?> syntaxes = pc.getTransferSyntaxUIDs();
                    if (syntaxes.size() > 1) { // only the uncompressed ones share a context
                        assertThat(syntaxes).allMatch(ts -> ts.toString().startsWith("1.2.840.10008.1.2")
                                && List.of(TransferSyntax.ExplicitVRLittleEndian, TransferSyntax.ImplicitVRLittleEndian,
                                        TransferSyntax.ExplicitVRBigEndian).contains(ts.toString()));
                    }
                    syntaxes.forEach(ts -> proposed.add(ts.toString()));
                }
            }
            // exactly what the SCP would accept for the class, compressed syntaxes included
            assertThat(proposed).containsExactlyInAnyOrderElementsOf(ScpAcceptance.acceptedTransferSyntaxes(sopClass));
            assertThat(proposed).contains(TransferSyntax.RLE, TransferSyntax.JPEGBaseline,
                    TransferSyntax.JPEG2000Lossless);
            assertThat(contexts.stream().filter(pc -> pc.getAbstractSyntaxUID().equals(sopClass)).count())
                    .isEqualTo(RetrieveScu.contextsPerClass(sopClass));
        }
        assertThat(contexts).extracting(pc -> (int) pc.getIdentifier() & 0xFF).doesNotHaveDuplicates()
                .allMatch(id -> id % 2 == 1);
    }

    @Test
    void onlyStorageClassesTheScpAcceptsAreRetrievable() {
        assertThat(RetrieveScu.retrievable(List.of(CT, SOPClass.Verification, "1.2.3.4", MR)))
                .containsExactly(CT, MR);
    }

    @Test
    void theFinalResponseGivesTheCountsAndTheFailedInstances() throws Exception {
        AttributeList command = new AttributeList();
        put(command, new UnsignedShortAttribute(TagFromName.Status), 0xB000);
        put(command, new UnsignedShortAttribute(TagFromName.NumberOfCompletedSuboperations), 2);
        put(command, new UnsignedShortAttribute(TagFromName.NumberOfFailedSuboperations), 1);
        put(command, new UnsignedShortAttribute(TagFromName.NumberOfWarningSuboperations), 0);
        AttributeList identifier = new AttributeList();
        UniqueIdentifierAttribute failed = new UniqueIdentifierAttribute(RetrieveScu.FAILED_SOP_INSTANCE_UID_LIST);
        failed.addValue("1.2.3.4");
        failed.addValue("1.2.3.5");
        identifier.put(failed);
        // as it arrives: encoded in the query context's syntax
        AttributeList read = RetrieveScu.decode(RetrieveScu.encode(identifier, TransferSyntax.ImplicitVRLittleEndian),
                TransferSyntax.ImplicitVRLittleEndian);

        RetrieveScu.Outcome o = RetrieveScu.outcome(command, read);
        assertThat(o.status()).isEqualTo(0xB000);
        assertThat(o.completed()).isEqualTo(2);
        assertThat(o.failed()).isEqualTo(1);
        assertThat(o.failedSopInstances()).containsExactly("1.2.3.4", "1.2.3.5");
        assertThat(RetrieveScu.pending(o.status())).isFalse();
        assertThat(RetrieveScu.pending(0xFF00)).isTrue();
        assertThat(RetrieveScu.outcome(command, null).failedSopInstances()).isEmpty();
    }

    private static void put(AttributeList list, UnsignedShortAttribute a, int value) throws Exception {
        a.addValue(value);
        list.put(a);
    }
}
