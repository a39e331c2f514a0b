package org.medjava.store.net.dimse;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.TransferSyntax;
import java.io.ByteArrayInputStream;
import org.junit.jupiter.api.Test;

/** Response commands as a peer reads them, and request commands as the SCP reads them. */
class DimseMessagesTest {

    private static AttributeList parse(byte[] command) throws Exception {
        AttributeList list = new AttributeList();
        list.read(new DicomInputStream(new ByteArrayInputStream(command), TransferSyntax.ImplicitVRLittleEndian,
                false));
        return list;
    }

    @Test
    void responseCarriesStatusCommentCountsAndTheRightGroupLength() throws Exception {
        byte[] bytes = DimseMessages.response(DimseMessages.C_MOVE_RQ, "1.2.840.10008.5.1.4.1.2.2.2", 7, 0xB000)
                .errorComment("x".repeat(100) + "\\y").offendingElement(TagFromName.StudyDate).counts(-1, 3, 1, 0)
                .bytes();
        AttributeList list = parse(bytes);

        assertThat(Attribute.getSingleIntegerValueOrDefault(list, TagFromName.CommandField, 0)).isEqualTo(0x8021);
        assertThat(Attribute.getSingleIntegerValueOrDefault(list, TagFromName.MessageIDBeingRespondedTo, 0))
                .isEqualTo(7);
        assertThat(Attribute.getSingleIntegerValueOrDefault(list, TagFromName.Status, 0)).isEqualTo(0xB000);
        assertThat(Attribute.getSingleStringValueOrEmptyString(list, TagFromName.ErrorComment)).hasSize(64);
        assertThat(Attribute.getSingleIntegerValueOrDefault(list, TagFromName.NumberOfCompletedSuboperations, 0))
                .isEqualTo(3);
        assertThat(list.get(TagFromName.NumberOfRemainingSuboperations)).isNull();
        assertThat(Attribute.getSingleIntegerValueOrDefault(list, TagFromName.CommandDataSetType, 0))
                .isEqualTo(0x0101);
        long groupLength = Attribute.getSingleLongValueOrDefault(list, new AttributeTag(0, 0), -1);
        assertThat(groupLength).isEqualTo(bytes.length - 12); // everything after the group length element
    }

    @Test
    void theWholeReasonIsKeptForTheStoreThoughTheWireHoldsSixtyFourCharacters() throws Exception {
        String reason = "duplicate: SOP Instance stored already and the duplicate policy is reject (2.25.1 at a.dcm)";
        DimseMessages.Response response = DimseMessages.response(DimseMessages.C_STORE_RQ, "1.2.840.10008.5.1.4.1.1.2",
                1, 0x0111).errorComment(reason);
        // the wire's LO: 64 characters, read back trimmed (the 63 the admin console used to show, mid-sentence)
        assertThat(Attribute.getSingleStringValueOrEmptyString(parse(response.bytes()), TagFromName.ErrorComment))
                .isEqualTo("duplicate: SOP Instance stored already and the duplicate policy");
        assertThat(response.reason()).isEqualTo(reason); // what the store's retrieve hears from its SCP
    }

    @Test
    void requestCommandsAreRead() throws Exception {
        byte[] cstore = new com.pixelmed.network.CStoreRequestCommandMessage("1.2.840.10008.5.1.4.1.1.2",
                "1.2.3.4", "MOVER", 42).getBytes();
        Request rq = Request.parse(cstore, (byte) 3);
        assertThat(rq.commandField()).isEqualTo(DimseMessages.C_STORE_RQ);
        assertThat(rq.sopInstanceUid()).isEqualTo("1.2.3.4");
        assertThat(rq.hasDataSet()).isTrue();
        assertThat(rq.presentationContextId()).isEqualTo((byte) 3);
        assertThat(rq.name()).isEqualTo("C-STORE");

        Request echo = Request.parse(new com.pixelmed.network.CEchoRequestCommandMessage().getBytes(), (byte) 1);
        assertThat(echo.commandField()).isEqualTo(DimseMessages.C_ECHO_RQ);
        assertThat(echo.hasDataSet()).isFalse();
    }
}
