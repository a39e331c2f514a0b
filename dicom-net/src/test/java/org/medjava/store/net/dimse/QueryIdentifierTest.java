package org.medjava.store.net.dimse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeFactory;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomDictionary;
import org.junit.jupiter.api.Test;
import org.medjava.store.core.query.QueryLevel;

/** C-FIND identifiers read as archive queries. */
class QueryIdentifierTest {

    private static AttributeList identifier(String... keywordEqualsValue) throws Exception {
        AttributeList list = new AttributeList();
        for (String kv : keywordEqualsValue) {
            String[] p = kv.split("=", 2);
            AttributeTag tag = DicomDictionary.StandardDictionary.getTagFromName(p[0]);
            Attribute a = AttributeFactory.newAttribute(tag);
            if (p.length > 1) {
                a.addValue(p[1]);
            }
            list.put(a);
        }
        return list;
    }

    @Test
    void valuesAreMatchingKeysEverythingIsAReturnKey() throws Exception {
        QueryIdentifier id = QueryIdentifier.read(identifier("QueryRetrieveLevel=STUDY", "PatientName=Doe*",
                "StudyDate=20200101-", "StudyInstanceUID", "InstitutionName", "ModalitiesInStudy=*"), false);

        assertThat(id.level()).isEqualTo(QueryLevel.STUDY);
        assertThat(id.query().keys()).containsOnlyKeys("PatientName", "StudyDate");
        assertThat(id.returnKeys()).hasSize(5);
        assertThat(id.unsupportedMatching()).isFalse();
        assertThat(id.exactValue("StudyDate")).isNull();
    }

    @Test
    void keysTheStoreCannotMatchAreIgnoredAndReported() throws Exception {
        QueryIdentifier id = QueryIdentifier.read(identifier("QueryRetrieveLevel=SERIES",
                "StudyInstanceUID=1.2.3", "InstitutionName=Somewhere"), false);
        assertThat(id.unsupportedMatching()).isTrue();
        assertThat(id.query().keys()).containsOnlyKeys("StudyInstanceUID");
        assertThat(id.exactValue("StudyInstanceUID")).isEqualTo("1.2.3");
    }

    @Test
    void badLevelsAndValuesAreRefusedWithTheOffendingElement() throws Exception {
        assertThatThrownBy(() -> QueryIdentifier.read(identifier("QueryRetrieveLevel=WARD"), false))
                .isInstanceOfSatisfying(QueryIdentifier.Invalid.class, e -> assertThat(e.status).isEqualTo(0xA900));
        assertThatThrownBy(() -> QueryIdentifier.read(identifier("QueryRetrieveLevel=PATIENT"), false))
                .isInstanceOfSatisfying(QueryIdentifier.Invalid.class, e -> assertThat(e.status).isEqualTo(0xA900));
        assertThat(QueryIdentifier.read(identifier("QueryRetrieveLevel=PATIENT"), true).level())
                .isEqualTo(QueryLevel.PATIENT);
        assertThatThrownBy(() -> QueryIdentifier.read(identifier("QueryRetrieveLevel=STUDY",
                "StudyInstanceUID=1.2.*"), false)).isInstanceOfSatisfying(QueryIdentifier.Invalid.class, e -> {
                    assertThat(e.status).isEqualTo(0xC000);
                    assertThat(e.offending).isEqualTo(DicomDictionary.StandardDictionary.getTagFromName(
                            "StudyInstanceUID"));
                });
    }
}
