package org.medjava.store.core.index;

import org.medjava.codec.ImageFormat;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.DicomPreScan;
import org.medjava.codec.dicom.DicomStructureException;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.TagFromName;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The header values of one DICOM file that the index keeps, read with PixelMed up to (not including) Pixel Data.
 * Text values are trimmed, empty ones are null, and those longer than their column are cut to fit; UIDs longer than
 * 64 characters are refused (they are keys, cutting them would merge objects).
 */
record ParsedInstance(
        String patientId, String issuerOfPatientId, String patientName, String patientBirthDate, String patientSex,
        String studyInstanceUid, String studyDate, String studyTime, String accessionNumber, String studyId,
        String studyDescription, String referringPhysicianName,
        String seriesInstanceUid, String modality, Integer seriesNumber, String seriesDescription,
        String bodyPartExamined, String seriesDate,
        String sopInstanceUid, String sopClassUid, Integer instanceNumber, String transferSyntaxUid, String sourceAe,
        Integer rows, Integer columns, Integer numberOfFrames, Integer bitsAllocated,
        String photometricInterpretation, long fileSize, long lastModified, String metadataJson) {

    /** Binary values longer than this are not kept in the metadata but referred to as bulk data. */
    static final int BULK_THRESHOLD = 1024;

    /** Column lengths, from the value representations' maximum lengths (PS3.5 6.2), some with room to spare. */
    static final int UI = 64;
    static final int LO = 64;
    static final int SH = 64;
    static final int CS = 32;
    static final int PN = 256;
    static final int TM = 16;
    static final int AE = 16;

    private static final Pattern DATE = Pattern.compile("\\d{8}");
    private static final Pattern TIME = Pattern.compile("\\d{2,6}(\\.\\d{1,6})?");

    /** Whether {@code head}, the start of a file, is DICOM Part 10: "DICM" at offset 128. */
    static boolean isDicom(InputStream head) throws IOException {
        return DicomCodec.isDicom(head.readNBytes(ImageFormat.SNIFF_LENGTH));
    }

    /**
     * Reads the header of a file from {@code in}, up to (not including) Pixel Data; the caller closes the stream.
     *
     * @param storePath the file's store path, for messages
     * @param size      the file's size in bytes
     * @param modified  when the file was last modified (epoch ms)
     * @throws IndexException when the file cannot be read or parsed, or lacks a study, series or SOP Instance UID
     */
    /**
     * Checks the header of a file as {@link #parse} will read it (up to Pixel Data) against the reader's limits,
     * before PixelMed recurses into it; the caller closes the stream.
     *
     * @throws IndexException when it is refused
     * @throws IOException    when the file cannot be read
     */
    static void preScan(String storePath, InputStream in, long size) throws IOException {
        try {
            DicomPreScan.checkPart10(new BufferedInputStream(in), size, true);
        } catch (DicomStructureException e) {
            throw new IndexException(storePath + ": not a readable DICOM file: " + e.getMessage(), e);
        }
    }

    static ParsedInstance parse(String storePath, InputStream in, long size, long modified) {
        AttributeList list = new AttributeList();
        list.setDecompressPixelData(false);
        try {
            list.read(new DicomInputStream(new BufferedInputStream(in)), TagFromName.PixelData);
        } catch (IOException | DicomException | RuntimeException e) {
            throw new IndexException(storePath + ": not a readable DICOM file: " + e, e);
        }
        return of(storePath, list).withFile(size, modified);
    }

    /**
     * The values of a data set parsed already (file meta information included). Only the attributes before Pixel
     * Data count, as when a file is read; the file's size and time are 0 until {@link #withFile} sets them.
     *
     * @param storePath the store path the data set is or will be at, for messages
     * @throws IndexException when it lacks a study, series or SOP Instance UID
     */
    static ParsedInstance of(String storePath, AttributeList dataSet) {
        AttributeList list = headerOf(dataSet);
        String studyUid = uid(storePath, list, TagFromName.StudyInstanceUID, "StudyInstanceUID");
        String seriesUid = uid(storePath, list, TagFromName.SeriesInstanceUID, "SeriesInstanceUID");
        String sopUid = uid(storePath, list, TagFromName.SOPInstanceUID, "SOPInstanceUID");
        return new ParsedInstance(
                text(list, TagFromName.PatientID, LO), text(list, TagFromName.IssuerOfPatientID, LO),
                text(list, TagFromName.PatientName, PN), date(list, TagFromName.PatientBirthDate),
                text(list, TagFromName.PatientSex, CS),
                studyUid, date(list, TagFromName.StudyDate), time(list, TagFromName.StudyTime),
                text(list, TagFromName.AccessionNumber, SH), text(list, TagFromName.StudyID, SH),
                text(list, TagFromName.StudyDescription, LO), text(list, TagFromName.ReferringPhysicianName, PN),
                seriesUid, text(list, TagFromName.Modality, CS), integer(list, TagFromName.SeriesNumber),
                text(list, TagFromName.SeriesDescription, LO), text(list, TagFromName.BodyPartExamined, CS),
                date(list, TagFromName.SeriesDate),
                sopUid, optionalUid(list, TagFromName.SOPClassUID), integer(list, TagFromName.InstanceNumber),
                optionalUid(list, TagFromName.TransferSyntaxUID),
                text(list, TagFromName.SourceApplicationEntityTitle, AE),
                integer(list, TagFromName.Rows), integer(list, TagFromName.Columns),
                integer(list, TagFromName.NumberOfFrames), integer(list, TagFromName.BitsAllocated),
                text(list, TagFromName.PhotometricInterpretation, CS), 0, 0,
                metadata(storePath, list));
    }

    /** This instance as stored in a file of {@code size} bytes last modified at {@code modified} (epoch ms). */
    ParsedInstance withFile(long size, long modified) {
        return new ParsedInstance(patientId, issuerOfPatientId, patientName, patientBirthDate, patientSex,
                studyInstanceUid, studyDate, studyTime, accessionNumber, studyId, studyDescription,
                referringPhysicianName, seriesInstanceUid, modality, seriesNumber, seriesDescription,
                bodyPartExamined, seriesDate, sopInstanceUid, sopClassUid, instanceNumber, transferSyntaxUid, sourceAe,
                rows, columns, numberOfFrames, bitsAllocated, photometricInterpretation, size, modified, metadataJson);
    }

    /** The attributes before Pixel Data (a view when the data set goes further, the list itself when not). */
    private static AttributeList headerOf(AttributeList dataSet) {
        if (dataSet.isEmpty() || dataSet.lastKey().compareTo(TagFromName.PixelData) < 0) {
            return dataSet;
        }
        AttributeList header = new AttributeList();
        header.putAll(dataSet.headMap(TagFromName.PixelData));
        return header;
    }

    /** The header as DICOM JSON (what WADO-RS metadata and QIDO-RS includefield answer from). */
    private static String metadata(String storePath, AttributeList list) {
        try {
            return DicomJson.toJson(list, BULK_THRESHOLD);
        } catch (RuntimeException e) {
            throw new IndexException(storePath + ": the header cannot be kept as DICOM JSON: " + e.getMessage(), e);
        }
    }

    /**
     * The patient's key: issuer and ID when there is an ID, else the name (so that patients without an ID are not
     * all merged into one).
     */
    String patientKey() {
        String key = patientId != null
                ? "I:" + nonNull(issuerOfPatientId) + "\\" + patientId
                : "N:" + nonNull(patientName);
        return key.length() <= PatientEntity.KEY_LENGTH ? key : key.substring(0, PatientEntity.KEY_LENGTH);
    }

    static String lower(String value) {
        return value == null ? null : value.toLowerCase(Locale.ROOT);
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }

    private static String uid(String storePath, AttributeList list, AttributeTag tag, String keyword) {
        String value = Attribute.getSingleStringValueOrEmptyString(list, tag).trim();
        if (value.isEmpty()) {
            throw new IndexException(storePath + ": not indexable: the DICOM header has no " + keyword
                    + " (damaged or truncated file?)");
        }
        if (value.length() > UI) {
            throw new IndexException(storePath + ": not indexable: " + keyword + " is longer than " + UI
                    + " characters");
        }
        return value;
    }

    private static String optionalUid(AttributeList list, AttributeTag tag) {
        return text(list, tag, UI);
    }

    private static String text(AttributeList list, AttributeTag tag, int max) {
        String value = Attribute.getSingleStringValueOrEmptyString(list, tag).trim();
        if (value.isEmpty()) {
            return null;
        }
        return value.length() <= max ? value : value.substring(0, max);
    }

    /** A DA value as YYYYMMDD (the ACR-NEMA form YYYY.MM.DD is converted), or null when absent or invalid. */
    private static String date(AttributeList list, AttributeTag tag) {
        String value = text(list, tag, 64);
        if (value == null) {
            return null;
        }
        value = value.replace(".", "");
        return DATE.matcher(value).matches() ? value : null;
    }

    /** A TM value as HHMMSS.FFFFFF (the ACR-NEMA form HH:MM:SS is converted), or null when absent or invalid. */
    private static String time(AttributeList list, AttributeTag tag) {
        String value = text(list, tag, 64);
        if (value == null) {
            return null;
        }
        value = value.replace(":", "");
        return TIME.matcher(value).matches() && value.length() <= TM ? value : null;
    }

    private static Integer integer(AttributeList list, AttributeTag tag) {
        String value = text(list, tag, 64);
        if (value == null) {
            return null;
        }
        try {
            return Integer.valueOf(value.startsWith("+") ? value.substring(1) : value);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
