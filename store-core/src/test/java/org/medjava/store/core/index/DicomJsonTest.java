package org.medjava.store.core.index;

import static org.assertj.core.api.Assertions.assertThat;

import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.TagFromName;
import java.io.StringReader;
import javax.json.Json;
import javax.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.medjava.store.testkit.Samples;

/** The DICOM JSON model as PS3.18 F.2 has it, checked on a real header. */
class DicomJsonTest {

    private static JsonObject json(String sample, int bulkThreshold) throws Exception {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        list.read(Samples.dicom(sample).toString(), TagFromName.PixelData);
        return Json.createReader(new StringReader(DicomJson.toJson(list, bulkThreshold))).readObject();
    }

    @Test
    void keysAreUpperCaseTagsWithVrAndValues() throws Exception {
        JsonObject ct = json("CT_small.dcm", 1024);
        assertThat(ct).containsKey("00080018").doesNotContainKey("00020010").doesNotContainKey("7FE00010");
        assertThat(ct.keySet()).allMatch(k -> k.matches("[0-9A-F]{8}"));
        assertThat(ct.getJsonObject("00100020").getString("vr")).isEqualTo("LO");
        assertThat(ct.getJsonObject("00100020").getJsonArray("Value").getString(0)).isEqualTo("1CT1");
        assertThat(ct.getJsonObject("00100010").getJsonArray("Value").getJsonObject(0).getString("Alphabetic"))
                .isEqualTo("CompressedSamples^CT1");
    }

    @Test
    void numbersAreNumbers() throws Exception {
        JsonObject ct = json("CT_small.dcm", 1024);
        assertThat(ct.getJsonObject("00280010").getJsonArray("Value").getJsonNumber(0).intValue()).isEqualTo(128);
        assertThat(ct.getJsonObject("00200013").getString("vr")).isEqualTo("IS");
        assertThat(ct.getJsonObject("00200013").getJsonArray("Value").get(0).getValueType())
                .isEqualTo(javax.json.JsonValue.ValueType.NUMBER);
        assertThat(ct.getJsonObject("00280030").getJsonArray("Value")).hasSize(2); // PixelSpacing, DS
        assertThat(ct.getJsonObject("00280030").getJsonArray("Value").get(0).getValueType())
                .isEqualTo(javax.json.JsonValue.ValueType.NUMBER);
    }

    @Test
    void sequencesNestAndLargeBinariesBecomeBulkData() throws Exception {
        JsonObject ct = json("CT_small.dcm", 16);
        JsonObject otherIds = ct.getJsonObject("00101002");
        assertThat(otherIds.getString("vr")).isEqualTo("SQ");
        assertThat(otherIds.getJsonArray("Value")).hasSize(2);
        assertThat(otherIds.getJsonArray("Value").getJsonObject(0)).containsKey("00100020");
        long bulk = ct.values().stream().map(v -> (JsonObject) v).filter(v -> v.containsKey("BulkDataURI")).count();
        assertThat(bulk).isPositive();
        assertThat(ct.values().stream().map(v -> (JsonObject) v).filter(v -> v.containsKey("BulkDataURI"))
                .map(v -> v.getString("BulkDataURI"))).allMatch(u -> u.startsWith(DicomJson.INSTANCE_URL + "/bulk/"));
        JsonObject inline = json("CT_small.dcm", 0);
        assertThat(inline.values().stream().map(v -> (JsonObject) v).filter(v -> v.containsKey("BulkDataURI")))
                .isEmpty();
    }

    /**
     * A large binary value (a 1 GiB encapsulated document) becomes a BulkDataURI from its length alone: copying its
     * bytes three times over to learn their number took 3 GiB of heap per upload.
     */
    @Test
    void aLargeBinaryBecomesBulkDataWithoutItsBytesBeingCopied() throws Exception {
        AttributeList list = new AttributeList();
        com.pixelmed.dicom.OtherByteAttribute document = new com.pixelmed.dicom.OtherByteAttribute(
                TagFromName.EncapsulatedDocument) {
            @Override
            public long getVL() {
                return 1L << 30;
            }

            @Override
            public void write(com.pixelmed.dicom.DicomOutputStream o) {
                throw new AssertionError("the value's bytes were copied");
            }
        };
        list.put(document);
        JsonObject json = Json.createReader(new StringReader(DicomJson.toJson(list, 1024))).readObject();
        assertThat(json.getJsonObject("00420011").getString("BulkDataURI"))
                .isEqualTo(DicomJson.INSTANCE_URL + "/bulk/00420011");
    }
}
