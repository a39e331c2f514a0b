package org.medjava.store.net.dimse;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.CodeStringAttribute;
import com.pixelmed.dicom.DicomDictionary;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.SOPClass;
import com.pixelmed.dicom.StringAttribute;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.network.DicomNetworkException;
import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.audit.ReadAudit;
import org.medjava.store.core.index.IndexException;
import org.medjava.store.core.index.Visibility;
import org.medjava.store.core.query.ArchiveQuery;
import org.medjava.store.core.query.ArchiveSearch;
import org.medjava.store.core.query.ResultAttributes;

/**
 * C-FIND SCP, Study Root and Patient Root, every level, answered from the store's index: one pending response per
 * match with the return keys asked for, then the final one. Return keys the index's columns do not hold come from
 * the stored header of the instance (or of one instance of the series or study, for attributes of that level). Unsupported matching keys are ignored and the pending
 * responses say so (FF01); invalid ones are refused (A900 for the level, C000 for a value, with the offending
 * element and a comment). Every query read is counted by the audit of reads, with its matching keys.
 */
final class FindScp {

    private static final Logger LOG = Logger.getLogger(FindScp.class.getName());

    private final ArchiveSearch search;
    private final StoredHeaders headers;
    private final String aeTitle;
    private final ReadAudit reads;
    private final java.util.function.Function<String, Visibility> visibility;

    /** @param visibility the studies a calling AE title may find */
    FindScp(ArchiveSearch search, StoredHeaders headers, String aeTitle, ReadAudit reads,
            java.util.function.Function<String, Visibility> visibility) {
        this.search = search;
        this.headers = headers;
        this.aeTitle = aeTitle;
        this.reads = reads;
        this.visibility = visibility;
    }

    void handle(Exchange x) throws DicomNetworkException, IOException {
        QueryIdentifier id;
        List<StoredHeaders.Match> matches;
        try {
            id = QueryIdentifier.read(x.identifier(), SOPClass.isPatientRootCompositeInstanceQuery(
                    x.request().sopClassUid()));
            audit(x, id);
            matches = find(id, visibility.apply(x.callingAe()));
        } catch (QueryIdentifier.Invalid e) {
            x.send(x.response(e.status).errorComment(e.getMessage()).offendingElement(e.offending));
            return;
        } catch (DicomException e) {
            x.send(x.response(DimseStatus.IDENTIFIER_DOES_NOT_MATCH_SOP_CLASS).errorComment(
                    "the identifier does not parse: " + e.getMessage()));
            return;
        } catch (IllegalArgumentException e) {
            x.send(x.response(DimseStatus.UNABLE_TO_PROCESS).errorComment(e.getMessage()));
            return;
        } catch (IndexException e) {
            LOG.log(Level.WARNING, "C-FIND from " + x.callingAe() + " failed", e);
            x.send(x.response(DimseStatus.OUT_OF_RESOURCES).errorComment("the index failed: " + e.getMessage()));
            return;
        }
        int pending = id.unsupportedMatching() ? DimseStatus.PENDING_OPTIONAL_KEYS_NOT_SUPPORTED : DimseStatus.PENDING;
        String ts = x.transferSyntax();
        try {
            for (StoredHeaders.Match match : matches) {
                x.send(x.response(pending), DimseMessages.encode(responseIdentifier(id, match), ts));
            }
        } catch (DicomException e) {
            x.send(x.response(DimseStatus.UNABLE_TO_PROCESS).errorComment("cannot encode a match: " + e.getMessage()));
            return;
        }
        x.send(x.response(DimseStatus.SUCCESS));
        LOG.log(Level.FINE, "C-FIND from {0} at {1}: {2} matches", new Object[] {x.callingAe(), id.level(),
                matches.size()});
    }

    /** The query as asked: its level and matching keys, the study and patient when it names one of each. */
    private void audit(Exchange x, QueryIdentifier id) {
        String keys = "QueryRetrieveLevel=" + id.level() + id.query().keys().entrySet().stream()
                .map(e -> "&" + e.getKey() + "=" + e.getValue()).collect(Collectors.joining());
        reads.query(x.caller(), DimseServer.DOOR,
                x.request().sopClassUid(), keys, id.exactValue("StudyInstanceUID"), id.exactValue("PatientID"));
    }

    private List<StoredHeaders.Match> find(QueryIdentifier id, Visibility v) {
        ArchiveQuery q = id.query().visibleTo(v);
        return switch (id.level()) {
            case PATIENT -> search.patients(q).stream().map(headers::of).toList();
            case STUDY -> search.studies(q).stream().map(headers::of).toList();
            case SERIES -> search.series(q).stream().map(headers::of).toList();
            case IMAGE -> search.instances(q).stream().map(headers::of).toList();
        };
    }

    /** The return keys asked for, with the values of the match (or of the query, for keys above the level). */
    private AttributeList responseIdentifier(QueryIdentifier id, StoredHeaders.Match match) throws DicomException {
        AttributeList out = new AttributeList();
        boolean nonAscii = false;
        putString(out, new CodeStringAttribute(TagFromName.QueryRetrieveLevel), id.level().name());
        putString(out, new com.pixelmed.dicom.ApplicationEntityAttribute(TagFromName.RetrieveAETitle), aeTitle);
        for (AttributeTag tag : id.returnKeys()) {
            Attribute value = match.attribute(tag);
            if (value == null) {
                value = ResultAttributes.empty(tag);
                String keyword = DicomDictionary.StandardDictionary.getNameFromTag(tag);
                String echoed = keyword == null ? null : id.exactValue(keyword);
                if (value != null && echoed != null) {
                    value.addValue(echoed);
                }
            }
            if (value != null) {
                out.put(value);
                nonAscii |= value instanceof StringAttribute && !isAscii(value.getDelimitedStringValuesOrEmptyString());
            }
        }
        if (nonAscii) {
            putString(out, new CodeStringAttribute(TagFromName.SpecificCharacterSet), "ISO_IR 192");
        }
        return out;
    }

    private static void putString(AttributeList list, Attribute a, String value) throws DicomException {
        a.addValue(value);
        list.put(a);
    }

    private static boolean isAscii(String s) {
        return s.chars().allMatch(c -> c < 0x80);
    }
}
