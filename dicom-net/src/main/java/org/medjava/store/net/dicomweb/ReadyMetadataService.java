package org.medjava.store.net.dicomweb;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.medjava.store.core.StoreException;
import org.medjava.store.core.index.DicomIndex;
import org.medjava.store.core.index.IndexException;
import org.medjava.store.core.index.InstanceSummary;
import org.medjava.store.core.index.ReadyMetadata;
import org.medjava.store.core.index.Visibility;

/**
 * WADO-RS metadata of a whole series or study (PS3.18 10.4.1.1.2), made once and then served ready-made: the DICOM
 * JSON array that {@link WadoService#metadata} builds, gzip-compressed and kept by the index
 * ({@link DicomIndex#readyMetadata}) for each public base, until a write changes the series or study. A client
 * that accepts gzip gets the kept bytes as they are; another gets them decompressed while they are sent. A
 * series of 500 CT slices is ~870 KB of JSON and ~40 KB of gzip.
 */
public final class ReadyMetadataService {
    private static final Logger LOG = Logger.getLogger(ReadyMetadataService.class.getName());
    /** The form of what is kept: raise it when {@link WadoService#metadata} changes what it makes. */
    private static final String FORM = "1 ";

    private final WadoService wado;
    private final DicomIndex index;
    private final Visibility visibility;

    /** For a caller who may see what {@code visibility} lets them (the visibility {@code wado} selects with). */
    public ReadyMetadataService(WadoService wado, DicomIndex index, Visibility visibility) {
        this.wado = wado;
        this.index = index;
        this.visibility = visibility;
    }

    /** The metadata of every instance of a series; 404 when it has none this caller may see. */
    public ReadyMetadata series(String study, String series, DicomWebUrls urls) {
        return ready(ReadyMetadata.Level.SERIES, Uids.check(study, "study"), Uids.check(series, "series"), urls);
    }

    /** The metadata of every instance of a study; 404 when it has none this caller may see. */
    public ReadyMetadata study(String study, DicomWebUrls urls) {
        return ready(ReadyMetadata.Level.STUDY, Uids.check(study, "study"), null, urls);
    }

    /** An entity tag of what {@code ready} holds: it changes with every write to the series or study. */
    public static String etag(ReadyMetadata ready, DicomWebUrls urls) {
        return ready.level().name().toLowerCase(java.util.Locale.ROOT) + "-" + ready.version() + "-"
                + Integer.toHexString((FORM + urls.base()).hashCode());
    }

    /** The JSON of {@code ready}, decompressed as it is read. */
    public static InputStream json(ReadyMetadata ready) {
        try {
            return new GZIPInputStream(new java.io.ByteArrayInputStream(ready.gzip()), 8192);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private ReadyMetadata ready(ReadyMetadata.Level level, String study, String series, DicomWebUrls urls) {
        String uid = series != null ? series : study;
        String key = FORM + urls.base();
        ReadyMetadata kept = index.readyMetadata(level, uid, key).orElse(null);
        if (kept != null && kept.studyUid().equals(study) && visible(study)) {
            return kept;
        }
        long version = index.metadataVersion(level, uid); // before the instances: a write in between outdates it
        List<InstanceSummary> instances = wado.select(study, series, null);
        byte[] json = wado.metadata(instances, urls).getBytes(StandardCharsets.UTF_8);
        ReadyMetadata made = new ReadyMetadata(level, uid, study, instances.get(0).patientId(), instances.size(),
                version, json.length, gzip(json));
        try {
            index.keepReadyMetadata(made, key);
        } catch (IndexException e) { // answered all the same; made again next time
            LOG.log(Level.INFO, "metadata of {0} not kept: {1}", new Object[] {uid, e.getMessage()});
        }
        return made;
    }

    /** Whether this caller may see the study (then what is kept for it is theirs to read too). */
    private boolean visible(String study) {
        if (visibility.all()) {
            return true;
        }
        if (visibility.studyUid() != null) {
            return visibility.studyUid().equals(study);
        }
        Set<String> labels = index.labels(study);
        return visibility.labelSet().stream().anyMatch(labels::contains);
    }

    static byte[] gzip(byte[] json) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(json.length / 8 + 64);
        try (GZIPOutputStream gz = new GZIPOutputStream(out, 65536)) {
            gz.write(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
