package org.medjava.store.net.dimse;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomDictionary;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.TagFromName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.medjava.store.core.query.ArchiveQuery;
import org.medjava.store.core.query.QueryLevel;

/**
 * A C-FIND, C-MOVE or C-GET identifier read as an {@link ArchiveQuery}: QueryRetrieveLevel, the matching keys
 * (attributes with a value, by keyword) and the return keys (every attribute asked for). Keys the store cannot
 * match on are ignored and reported ({@link #unsupportedMatching()}, status FF01 for C-FIND, PS3.4 C.4.1.1.4).
 */
record QueryIdentifier(ArchiveQuery query, List<AttributeTag> returnKeys, boolean unsupportedMatching) {

    /** A refused identifier: the status, the reason, the attribute at fault (may be null). */
    static final class Invalid extends Exception {
        private static final long serialVersionUID = 1L;
        final int status;
        final transient AttributeTag offending;

        Invalid(int status, String message, AttributeTag offending) {
            super(message);
            this.status = status;
            this.offending = offending;
        }
    }

    static QueryIdentifier read(AttributeList identifier, boolean patientRoot) throws Invalid {
        QueryLevel level;
        try {
            level = QueryLevel.parse(Attribute.getSingleStringValueOrEmptyString(identifier,
                    TagFromName.QueryRetrieveLevel));
        } catch (IllegalArgumentException e) {
            throw new Invalid(DimseStatus.IDENTIFIER_DOES_NOT_MATCH_SOP_CLASS, e.getMessage(),
                    TagFromName.QueryRetrieveLevel);
        }
        if (level == QueryLevel.PATIENT && !patientRoot) {
            throw new Invalid(DimseStatus.IDENTIFIER_DOES_NOT_MATCH_SOP_CLASS,
                    "the Study Root model has no PATIENT level", TagFromName.QueryRetrieveLevel);
        }
        Map<String, String> keys = new LinkedHashMap<>();
        List<AttributeTag> returnKeys = new ArrayList<>();
        boolean unsupported = false;
        for (Object o : identifier.values()) {
            Attribute a = (Attribute) o;
            AttributeTag tag = a.getTag();
            if (tag.getGroup() <= 0x0002 || tag.equals(TagFromName.QueryRetrieveLevel)
                    || tag.equals(TagFromName.SpecificCharacterSet) || tag.isPrivate()) {
                continue;
            }
            returnKeys.add(tag);
            String value = a instanceof SequenceAttribute ? "" : Attribute.getDelimitedStringValuesOrEmptyString(
                    identifier, tag).trim();
            if (value.isEmpty() || value.chars().allMatch(c -> c == '*')) {
                continue;
            }
            String keyword = DicomDictionary.StandardDictionary.getNameFromTag(tag);
            if (keyword == null || !level.matchableKeywords().contains(keyword)) {
                unsupported = true;
                continue;
            }
            try {
                QueryLevel.validateKey(keyword, value);
            } catch (IllegalArgumentException e) {
                throw new Invalid(DimseStatus.UNABLE_TO_PROCESS, e.getMessage(), tag);
            }
            keys.put(keyword, value);
        }
        return new QueryIdentifier(ArchiveQuery.of(level, keys), returnKeys, unsupported);
    }

    QueryLevel level() {
        return query.level();
    }

    /**
     * The matching key for {@code keyword} when it names one value exactly (no wildcard, range or list): the value a
     * response may echo for an attribute of a level above the results.
     */
    String exactValue(String keyword) {
        String v = query.keys().get(keyword);
        boolean range = (keyword.endsWith("Date") || keyword.endsWith("Time")) && v != null && v.contains("-");
        if (v == null || range || v.contains("*") || v.contains("?") || v.contains("\\")) {
            return null;
        }
        return v;
    }
}
