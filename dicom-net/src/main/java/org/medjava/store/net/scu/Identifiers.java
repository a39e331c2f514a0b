package org.medjava.store.net.scu;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeFactory;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.CodeStringAttribute;
import com.pixelmed.dicom.DicomDictionary;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.SpecificCharacterSet;
import com.pixelmed.dicom.TagFromName;
import java.util.LinkedHashMap;
import java.util.Map;
import org.medjava.store.core.query.QueryLevel;

/** C-FIND and retrieve identifiers for the SCU, built from DICOM keywords, and matches read back as keywords. */
final class Identifiers {

    private static final SpecificCharacterSet UTF8 = new SpecificCharacterSet(new String[] {"ISO_IR 192"});

    private Identifiers() {
    }

    /**
     * An identifier at {@code level}: the matching keys (keyword → value) and the return keys (keywords asked for
     * without a value).
     *
     * @throws IllegalArgumentException naming a keyword that is not one
     */
    static AttributeList of(QueryLevel level, Map<String, String> matching, Iterable<String> returnKeys) {
        AttributeList list = new AttributeList();
        try {
            put(list, new CodeStringAttribute(TagFromName.QueryRetrieveLevel), level.name());
            put(list, new CodeStringAttribute(TagFromName.SpecificCharacterSet), "ISO_IR 192");
            for (String keyword : returnKeys) {
                list.put(attribute(keyword));
            }
            for (Map.Entry<String, String> key : matching.entrySet()) {
                Attribute a = attribute(key.getKey());
                for (String v : key.getValue().split("\\\\", -1)) {
                    a.addValue(v);
                }
                list.put(a);
            }
        } catch (DicomException e) {
            throw new IllegalArgumentException("cannot build the identifier: " + e.getMessage(), e);
        }
        return list;
    }

    private static Attribute attribute(String keyword) throws DicomException {
        AttributeTag tag = DicomDictionary.StandardDictionary.getTagFromName(keyword);
        if (tag == null) {
            throw new IllegalArgumentException(keyword + " is not a DICOM keyword");
        }
        return AttributeFactory.newAttribute(tag, DicomDictionary.StandardDictionary.getValueRepresentationFromTag(
                tag), UTF8);
    }

    private static void put(AttributeList list, Attribute a, String value) throws DicomException {
        a.addValue(value);
        list.put(a);
    }

    /** A match as keyword → value (multiple values separated by backslashes); sequences and unknown tags left out. */
    static Map<String, String> keywords(AttributeList match) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Object o : match.values()) {
            Attribute a = (Attribute) o;
            String keyword = DicomDictionary.StandardDictionary.getNameFromTag(a.getTag());
            if (keyword == null || a instanceof SequenceAttribute || a.getTag().equals(TagFromName.SpecificCharacterSet)
                    || a.getTag().getGroup() == 0x0000) {
                continue;
            }
            String value = a.getDelimitedStringValuesOrEmptyString().trim();
            if (!value.isEmpty()) {
                out.put(keyword, value);
            }
        }
        return out;
    }
}
