package org.medjava.store.net.dicomweb;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Map;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.json.Json;
import javax.json.stream.JsonGenerator;
import javax.json.stream.JsonGeneratorFactory;
import org.medjava.store.core.audit.Caller;
import org.medjava.store.core.ingest.Part10File;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.ingest.Expected;
import org.medjava.store.core.ingest.IngestFailure;
import org.medjava.store.core.ingest.Ingested;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.storage.DiskSpaceGuard;

/**
 * STOW-RS (PS3.18 10.5): a {@code multipart/related; type="application/dicom"} body, each part a Part 10 object,
 * stored through {@link Ingest} one part at a time as it streams in (parts are staged to disk, never held in
 * memory). The answer lists what was stored (ReferencedSOPSequence) and what failed and why (FailedSOPSequence,
 * FailureReason): 200 when everything was stored, 202 when some parts failed, 409 when none was stored.
 */
public final class StowService {

    private static final Logger LOG = Logger.getLogger(StowService.class.getName());
    private static final String DICOM = "application/dicom";

    /** The outcome of one part. */
    private record PartResult(Ingested stored, String sopClassUid, String sopInstanceUid, int failureReason,
                              String message) {
    }

    /** The answer: HTTP status, the DICOM JSON body, and the first failure's reason (or null). */
    public record Answer(int status, String json, String firstFailure) {
    }

    /** Made once: looking the JSON provider up costs a class-path scan each time. */
    private static final JsonGeneratorFactory JSON = Json.createGeneratorFactory(Map.of());

    private final Ingest ingest;
    private final long maxPartBytes;

    public StowService(Ingest ingest, long maxPartBytes) {
        this.ingest = ingest;
        this.maxPartBytes = maxPartBytes;
    }

    public Answer store(String contentType, InputStream body, String studyUid, DicomWebUrls urls, Caller caller)
            throws IOException {
        MediaRange type = mediaType(contentType);
        if (type == null || !type.type().equals("multipart/related")) {
            throw new StoreException(StoreException.Kind.UNSUPPORTED_MEDIA_TYPE, "STOW-RS takes multipart/related; "
                    + "type=\"application/dicom\", not " + (type == null ? "\"" + contentType + "\"" : type.type()));
        }
        String partsType = type.param("type");
        if (partsType != null && !partsType.equals(DICOM)) {
            throw new StoreException(StoreException.Kind.UNSUPPORTED_MEDIA_TYPE, "the store accepts parts of type "
                    + DICOM + " (Part 10 objects), not " + partsType);
        }
        String boundary = type.param("boundary");
        if (boundary == null || boundary.isEmpty()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "the Content-Type has no boundary");
        }
        Expected expected = studyUid == null ? Expected.NOTHING : Expected.study(Uids.check(studyUid, "study"));
        List<PartResult> results = new ArrayList<>();
        MultipartReader reader;
        try {
            reader = new MultipartReader(body, boundary);
        } catch (IllegalArgumentException e) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, e.getMessage());
        }
        try {
            for (MultipartReader.Part part; (part = reader.next()) != null; ) {
                PartResult result = storePart(part, expected, results.isEmpty(), caller);
                results.add(result);
                ingest.metrics().dicomStored("stow-rs", IngestFailure.Reason.label(result.failureReason()));
            }
        } catch (IOException e) {
            if (results.isEmpty()) {
                throw new StoreException(StoreException.Kind.BAD_REQUEST, "the multipart body is malformed: "
                        + e.getMessage(), e);
            }
            results.add(new PartResult(null, null, null, IngestFailure.Reason.CANNOT_UNDERSTAND.status,
                    "the rest of the multipart body is malformed: " + e.getMessage()));
        }
        if (results.isEmpty()) {
            throw new StoreException(StoreException.Kind.BAD_REQUEST, "the multipart body has no parts");
        }
        return answer(results, studyUid, urls);
    }

    /**
     * @param first whether no part came before: a nearly full disk then refuses the whole request (507) before
     *              anything is written; later parts fail with A700 and the parts stored before them stay
     */
    private PartResult storePart(MultipartReader.Part part, Expected expected, boolean first, Caller caller)
            throws IOException {
        String partType = part.contentType() == null || part.contentType().isBlank() ? DICOM
                : mediaType(part.contentType()) == null ? part.contentType() : mediaType(part.contentType()).type();
        if (!partType.equals(DICOM)) {
            part.body().transferTo(OutputStream.nullOutputStream());
            return new PartResult(null, null, null, IngestFailure.Reason.CANNOT_UNDERSTAND.status,
                    "a part of type " + partType + "; the store takes " + DICOM);
        }
        Path staged;
        try {
            staged = ingest.newStagingFile();
        } catch (StoreException e) {
            if (first || e.kind() != StoreException.Kind.INSUFFICIENT_STORAGE) {
                throw e;
            }
            part.body().transferTo(OutputStream.nullOutputStream());
            return new PartResult(null, null, null, IngestFailure.Reason.OUT_OF_RESOURCES.status, e.getMessage());
        }
        try {
            if (!copyAtMost(part.body(), staged, first)) {
                return new PartResult(null, null, null, IngestFailure.Reason.OUT_OF_RESOURCES.status,
                        "a part is larger than the store's limit of " + maxPartBytes + " bytes");
            }
            Part10File meta = metaOf(staged);
            try {
                Ingested stored = ingest.receive(staged, expected, caller);
                return new PartResult(stored, stored.sopClassUid(), stored.sopInstanceUid(), 0, null);
            } catch (IngestFailure e) {
                LOG.log(Level.INFO, "STOW-RS part refused (0x{0}): {1}", new Object[] {
                        Integer.toHexString(e.status()), e.getMessage()});
                return new PartResult(null, meta == null ? null : meta.sopClassUid(),
                        meta == null ? null : meta.sopInstanceUid(), e.status(), e.getMessage());
            }
        } finally {
            Files.deleteIfExists(staged);
        }
    }

    /** A Content-Type read, or null when it is not a media type. */
    private static MediaRange mediaType(String text) {
        try {
            return MediaRange.parse(text);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The UIDs a refused part says it has, for the FailedSOPSequence (null when it has none). */
    private static Part10File metaOf(Path staged) {
        try {
            return Part10File.read(staged);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Copies the part into the staging file; false (and the rest skipped) when it is over the limit.
     *
     * @throws StoreException INSUFFICIENT_STORAGE when the disk fills up (the part is not stored)
     */
    private boolean copyAtMost(InputStream in, Path staged, boolean first) throws IOException {
        long total = 0;
        byte[] buffer = new byte[1 << 16];
        try (OutputStream out = Files.newOutputStream(staged)) {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                total += n;
                if (total > maxPartBytes) {
                    in.transferTo(OutputStream.nullOutputStream());
                    return false;
                }
                out.write(buffer, 0, n);
            }
        } catch (IOException e) {
            if (DiskSpaceGuard.isOutOfSpace(e)) {
                throw new StoreException(StoreException.Kind.INSUFFICIENT_STORAGE, "the disk ran out of space while"
                        + " receiving " + (first ? "the first part" : "a part") + " (" + e.getMessage() + "); that"
                        + " part was not stored", e);
            }
            throw e;
        }
        return true;
    }

    private static Answer answer(List<PartResult> results, String studyUid, DicomWebUrls urls) {
        long stored = results.stream().filter(r -> r.stored() != null).count();
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            List<String> studies = results.stream().filter(r -> r.stored() != null)
                    .map(r -> r.stored().studyInstanceUid()).distinct().toList();
            String study = studyUid != null ? studyUid : studies.size() == 1 ? studies.get(0) : null;
            if (study != null) {
                string(g, "00081190", "UR", urls.study(study));
            }
            if (stored < results.size()) {
                g.writeStartObject("00081198").write("vr", "SQ").writeStartArray("Value");
                for (PartResult r : results) {
                    if (r.stored() == null) {
                        g.writeStartObject();
                        if (r.sopClassUid() != null) {
                            string(g, "00081150", "UI", r.sopClassUid());
                            string(g, "00081155", "UI", r.sopInstanceUid());
                        }
                        g.writeStartObject("00081197").write("vr", "US").writeStartArray("Value")
                                .write(r.failureReason()).writeEnd().writeEnd();
                        g.writeEnd();
                    }
                }
                g.writeEnd().writeEnd();
            }
            if (stored > 0) {
                g.writeStartObject("00081199").write("vr", "SQ").writeStartArray("Value");
                for (PartResult r : results) {
                    Ingested s = r.stored();
                    if (s != null) {
                        g.writeStartObject();
                        string(g, "00081150", "UI", s.sopClassUid());
                        string(g, "00081155", "UI", s.sopInstanceUid());
                        string(g, "00081190", "UR", urls.instance(s.studyInstanceUid(), s.seriesInstanceUid(),
                                s.sopInstanceUid()));
                        g.writeEnd();
                    }
                }
                g.writeEnd().writeEnd();
            }
            g.writeEnd();
        }
        int status = stored == results.size() ? 200 : stored > 0 ? 202 : 409;
        String firstFailure = results.stream().filter(r -> r.stored() == null).map(PartResult::message).findFirst()
                .orElse(null);
        return new Answer(status, out.toString(), firstFailure);
    }

    private static void string(JsonGenerator g, String key, String vr, String value) {
        g.writeStartObject(key).write("vr", vr).writeStartArray("Value").write(value).writeEnd().writeEnd();
    }
}
