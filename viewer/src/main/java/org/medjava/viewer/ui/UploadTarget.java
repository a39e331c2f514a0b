package org.medjava.viewer.ui;

import org.medjava.codec.dicom.ArchiveLayout;
import org.medjava.codec.dicom.Uids;
import org.medjava.viewer.image.ImageOrigin;
import org.medjava.viewer.image.UploadEncoder;
import org.medjava.viewer.image.UploadFormat;

/**
 * Where and how to upload: a store path, a format, and for DICOM the SOP Instance UID the object is written with (null
 * for a new one).
 */
record UploadTarget(String path, UploadFormat format, String sopInstanceUid) {
    /** Where renders of an image (PNG, GIF, a DICOM made of a picture) go by default: never beside the source. */
    static final String DERIVED = "derived/";

    /** What the upload dialog proposes: a directory ("" or ending with '/'), a file name, a SOP Instance UID or null. */
    record Place(String directory, String name, String sopInstanceUid) {
    }

    /**
     * Where an upload goes unless the user says otherwise. A derived DICOM object of a DICOM source goes where the
     * store files objects it receives over the network ({@link ArchiveLayout}:
     * {@code dicom/{PatientID}/{StudyInstanceUID}/{SeriesInstanceUID}/{SOPInstanceUID}.dcm}), so it is filed with its
     * study whichever way it arrived. Everything else is a render: under {@value #DERIVED}, mirroring the source's
     * store directory.
     *
     * @param sopInstanceUid the SOP Instance UID a DICOM upload will be written with
     */
    static Place suggest(ImageOrigin origin, UploadEncoder.Snapshot snapshot, UploadFormat format,
                         String sopInstanceUid) {
        if (format == UploadFormat.DICOM && snapshot.source().isDicom()) {
            var a = snapshot.source().dicom().attributes();
            String series = UploadEncoder.derivedSeriesUid(snapshot);
            if (Uids.isValid(a.studyInstanceUid()) && Uids.isValid(series) && Uids.isValid(sopInstanceUid)) {
                return new Place(ArchiveLayout.directory(a.patientId(), a.studyInstanceUid(), series),
                        sopInstanceUid + ".dcm", sopInstanceUid);
            }
        }
        String dir = origin instanceof ImageOrigin.StoreFile f ? f.directory() : "";
        return new Place(dir.startsWith(DERIVED) ? dir : DERIVED + dir,
                defaultName(origin.name(), !snapshot.chain().isEmpty(), format),
                format == UploadFormat.DICOM ? sopInstanceUid : null);
    }

    /** {@code name} with its extension replaced by the format's. */
    static String withExtension(String name, UploadFormat format) {
        int dot = name.lastIndexOf('.');
        String base = dot > 0 ? name.substring(0, dot) : name;
        return base + "." + format.extension();
    }

    /** A default name: the source's base name, "-filtered" when filters were applied, the format's extension. */
    static String defaultName(String sourceName, boolean filtered, UploadFormat format) {
        int dot = sourceName.lastIndexOf('.');
        String base = dot > 0 ? sourceName.substring(0, dot) : sourceName;
        return base + (filtered ? "-filtered" : "") + "." + format.extension();
    }

    /** Checks a directory and name typed by a person and joins them to a store path. */
    static String join(String directory, String name) {
        String dir = directory == null ? "" : directory.trim().replace('\\', '/');
        while (dir.startsWith("/")) {
            dir = dir.substring(1);
        }
        if (!dir.isEmpty() && !dir.endsWith("/")) {
            dir += "/";
        }
        String n = name == null ? "" : name.trim();
        if (n.isEmpty() || n.contains("/") || n.startsWith(".")) {
            throw new IllegalArgumentException("the file name must not be empty, contain '/' or start with '.'");
        }
        for (String segment : (dir + n).split("/")) {
            if (segment.isEmpty() || segment.equals("..") || segment.startsWith(".")) {
                throw new IllegalArgumentException("\"" + dir + n + "\" is not a valid store path (no empty, '.' or"
                        + " '..' parts)");
            }
        }
        return dir + n;
    }
}
