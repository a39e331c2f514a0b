package org.medjava.store.core.repo;

import org.medjava.store.core.StoreException;
import com.pixelmed.dicom.AttributeList;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.medjava.codec.DecodeCheck;
import org.medjava.codec.ImageDecodeException;
import org.medjava.codec.ImageFormat;
import org.medjava.codec.ImageHeader;
import org.medjava.codec.dicom.DicomCodec;
import org.medjava.codec.dicom.UnsupportedDicomException;
import org.medjava.store.core.memory.DecodeBudget;
import org.medjava.store.core.memory.SmallReads;
import org.medjava.store.core.memory.DecodeCost;
import org.medjava.store.core.model.StorePath;

/**
 * Decides whether an uploaded body may be stored: it must be DICOM, GIF, PNG or JPEG by its content, agree with
 * its declared Content-Type and file-name extension, and decode. DICOM whose pixels this store cannot decode
 * (a transfer syntax without a decoder here, JPEG-LS without libcharls2: {@link UnsupportedDicomException}) is
 * accepted when the whole dataset parses, and served as it is; only rendering it fails.
 */
public final class UploadValidator {

    static final Set<ImageFormat> STORABLE = EnumSet.of(ImageFormat.DICOM, ImageFormat.GIF, ImageFormat.PNG,
            ImageFormat.JPEG);

    private final long maxPixels;
    private final DecodeBudget budget;

    public UploadValidator(long maxPixels) {
        this(maxPixels, DecodeBudget.UNLIMITED);
    }

    /** @param budget what every decode of a check takes its memory from */
    public UploadValidator(long maxPixels, DecodeBudget budget) {
        this.maxPixels = maxPixels;
        this.budget = budget;
    }

    /**
     * The whole check of a body: {@link #identify} and then the decoding ({@link #checkDicom} or
     * {@link #checkImage}). The ingest door runs the same steps itself, so that DICOM is parsed only once.
     *
     * @return the format of the body
     */
    public ImageFormat validate(StorePath path, Path body, String declaredType) throws IOException {
        ImageFormat format = identify(path, body, declaredType);
        if (format == ImageFormat.DICOM) {
            checkDicom(SmallReads.readAllBytes(body));
        } else {
            checkImage(format, body);
        }
        return format;
    }

    /**
     * What a body is, by its content, checked against its declared Content-Type and file-name extension.
     *
     * @param declaredType the request's Content-Type, or null
     * @throws StoreException UNSUPPORTED_MEDIA_TYPE: not an image we store, or disagreeing with its declared type
     *                        or name
     */
    public ImageFormat identify(StorePath path, Path body, String declaredType) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(body)) {
            head = in.readNBytes(ImageFormat.SNIFF_LENGTH);
        }
        Optional<ImageFormat> sniffed = ImageFormat.sniff(head);
        if (sniffed.isEmpty() || !STORABLE.contains(sniffed.get())) {
            throw new StoreException(StoreException.Kind.UNSUPPORTED_MEDIA_TYPE, describe(head, sniffed)
                    + "; the store accepts DICOM (Part 10), GIF, PNG and JPEG");
        }
        ImageFormat format = sniffed.get();
        checkDeclaredType(format, declaredType);
        checkExtension(path, format);
        return format;
    }

    /**
     * Checks that a GIF, PNG or JPEG body decodes (within the pixel limit): its header is read first, an image that
     * could never be decoded within the decode budget is refused, then the whole body is decoded keeping only a
     * subsample ({@link DecodeCheck}), so the check's memory is bounded whatever the image declares.
     *
     * @throws StoreException UNPROCESSABLE with the decoder's reason; TOO_LARGE when rendering it would need more
     *                        than the whole decode budget; UNAVAILABLE (503) when the budget is busy
     */
    public void checkImage(ImageFormat format, Path body) throws IOException {
        String truncated = ImageTrailer.problem(format, body);
        if (truncated != null) {
            throw new StoreException(StoreException.Kind.UNPROCESSABLE, "the body is " + format
                    + " but does not decode: " + truncated);
        }
        try {
            ImageHeader header = ImageHeader.peek(body);
            DecodeCheck.requireWithin(header, maxPixels);
            budget.requireFits(DecodeCost.ofRender(header, Files.size(body)), "this " + header);
            try (DecodeBudget.Permit permit = budget.admit(DecodeCost.ofCheck(header), "checking this " + header)) {
                DecodeCheck.verify(body, maxPixels);
            }
        } catch (ImageDecodeException e) {
            throw undecodable(format, e.getMessage().replace(body.toString() + ": ", ""), e);
        }
    }

    /**
     * Checks a whole DICOM Part 10 file held in memory as {@link #validate} does: the data set must parse to its end
     * and its first frame decode. A well-formed object whose pixels this store cannot decode (no decoder for its
     * transfer syntax, or JPEG-LS without libcharls2) passes: it is stored and served as it is, only rendering it
     * fails.
     *
     * @throws StoreException UNPROCESSABLE with the decoder's reason
     */
    public void checkDicom(byte[] file) throws IOException {
        long cost = 2L * file.length; // what a data set PixelMed cannot even read the header of may cost
        try {
            ImageHeader header = ImageHeader.peek(new java.io.ByteArrayInputStream(file));
            cost = DecodeCost.ofDecode(header, 0); // the file's bytes are held already
        } catch (ImageDecodeException e) {
            // no usable header: the decoder gives its verdict below
        }
        try (DecodeBudget.Permit permit = budget.admit(cost, "this DICOM object")) {
            DicomCodec.read(file, 0, maxPixels); // parses the whole data set first, then decodes frame 0
        } catch (UnsupportedDicomException e) {
            // Well-formed, only not decodable here: kept as it is.
        } catch (ImageDecodeException e) {
            throw undecodable(ImageFormat.DICOM, e.getMessage(), e);
        }
    }

    /**
     * Refuses, from its header alone, a DICOM image that could never be rendered here: one whose plainest rendering
     * (a thumbnail, a frame without filters) would need more than the whole decode budget, as the renderer estimates
     * it ({@link DecodeCost#ofDecode}), so that every rendering would answer 413. Pixel data in a transfer syntax
     * this store does not decode are never rendered and pass: they are kept and served as they are.
     *
     * @param header         Rows, Columns, Number of Frames, … of the object
     * @param transferSyntax its Transfer Syntax UID
     * @param fileBytes      the object's size (a lower bound when not known yet)
     * @throws StoreException TOO_LARGE naming the image, the estimate and the budget
     */
    public void requireRenderable(ImageHeader header, String transferSyntax, long fileBytes) {
        if (header.format() != ImageFormat.DICOM || !DicomCodec.decodes(transferSyntax)) {
            return;
        }
        try {
            budget.requireFits(DecodeCost.ofDecode(header, fileBytes), "this " + header);
        } catch (StoreException e) {
            throw new StoreException(StoreException.Kind.TOO_LARGE, e.getMessage() + ", so it could never be"
                    + " rendered or thumbnailed here and is not stored: send fewer frames per object, or give the"
                    + " store more memory (the budget is a quarter of the heap unless set)", e);
        }
    }

    /**
     * Whether the pixel data of a whole data set parsed already (pixel data not decompressed) surely decode, without
     * decoding them: for uncompressed pixel data in the common layouts the answer is known from the attributes and
     * the length of the pixel data. When it is yes, {@link #checkDicom} would pass; when no, it decides.
     *
     * @param transferSyntax the data set's Transfer Syntax UID
     */
    public boolean surelyDecodes(AttributeList dataSet, String transferSyntax) {
        return NativePixelCheck.surelyDecodes(dataSet, transferSyntax, maxPixels);
    }

    private static StoreException undecodable(ImageFormat format, String reason, ImageDecodeException e) {
        return new StoreException(StoreException.Kind.UNPROCESSABLE, "the body is " + format + " but does not decode: "
                + reason, e);
    }

    private static String describe(byte[] head, Optional<ImageFormat> sniffed) {
        if (head.length == 0) {
            return "the body is empty";
        }
        if (sniffed.isPresent()) {
            return "the body is " + sniffed.get() + ", which the store does not keep (convert it to PNG)";
        }
        byte[] first = java.util.Arrays.copyOf(head, Math.min(head.length, 8));
        return "the body is not a recognised image (it starts with bytes " + HexFormat.ofDelimiter(" ").formatHex(first)
                + ")";
    }

    private static void checkDeclaredType(ImageFormat format, String declaredType) {
        if (declaredType == null || declaredType.isBlank()) {
            return;
        }
        String type = declaredType.split(";")[0].trim().toLowerCase(Locale.ROOT);
        if (type.equals("application/octet-stream") || type.equals(format.mediaType())
                || (format == ImageFormat.JPEG && type.equals("image/jpg"))) {
            return;
        }
        throw new StoreException(StoreException.Kind.UNSUPPORTED_MEDIA_TYPE, "Content-Type is " + type
                + " but the body is " + format + " (" + format.mediaType() + "); send " + format.mediaType()
                + " or application/octet-stream");
    }

    private static void checkExtension(StorePath path, ImageFormat format) {
        Optional<ImageFormat> named = ImageFormat.fromFileName(Path.of(path.name()));
        if (named.isPresent() && named.get() != format) {
            throw new StoreException(StoreException.Kind.UNSUPPORTED_MEDIA_TYPE, "the name \"" + path.name()
                    + "\" says " + named.get() + " but the body is " + format + "; rename it or send the right file");
        }
    }
}
