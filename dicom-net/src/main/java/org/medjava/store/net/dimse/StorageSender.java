package org.medjava.store.net.dimse;

import org.medjava.store.core.ingest.Part10File;
import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.network.AReleaseException;
import com.pixelmed.network.Association;
import com.pixelmed.network.CStoreRequestCommandMessage;
import com.pixelmed.network.CompositeResponseHandler;
import com.pixelmed.network.DicomNetworkException;
import com.pixelmed.network.PresentationContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.transcode.NotTranscodable;
import org.medjava.store.core.transcode.TransferSyntaxes;
import org.medjava.store.core.transcode.Transcoder;

/**
 * C-STORE SCU for stored files. Each data set is sent byte for byte as stored when the peer accepts its SOP class in
 * the transfer syntax it is stored in (PixelMed's own storage SCU picks contexts by SOP class alone and then tries to
 * convert, which garbles compressed data); otherwise it is converted by the {@link Transcoder} to a syntax the
 * peer accepted that the store writes without loss (uncompressed, RLE, JPEG Lossless SV1, JPEG 2000 lossless). A file
 * that can go no way (JPEG-LS to a peer that takes only other syntaxes) fails alone, with the reason. Used for C-MOVE (a new association to the destination), C-GET (the
 * requester's association) and the store's "send to a remote PACS". A {@link Preparation} may send a copy made for
 * the peer instead (a de-identifying move destination's).
 */
public final class StorageSender {

    /** Hears about each sub-operation as it completes. */
    public interface Listener {
        void done(Part10File file, int status, String error, Counts counts);
    }

    /** What goes for a stored file: the file itself, or a copy made for the peer (such as a de-identified one). */
    public interface Preparation {
        Preparation AS_STORED = stored -> stored;

        /**
         * The file to send for {@code stored}, of the same SOP class and transfer syntax.
         *
         * @throws NotSendable the sub-operation fails with its message, and nothing of the file is sent
         */
        Part10File prepare(Part10File stored) throws NotSendable;

        /** The prepared file went, or failed to: a copy can be removed. */
        default void done(Part10File prepared) {
        }
    }

    /** The running counts of sub-operations. */
    public static final class Counts {
        int remaining;
        int completed;
        int failed;
        int warning;
        final List<String> errors = new ArrayList<>();

        Counts(int total) {
            this.remaining = total;
        }

        public int remaining() {
            return remaining;
        }

        public int completed() {
            return completed;
        }

        public int failed() {
            return failed;
        }

        public int warning() {
            return warning;
        }

        /** The first few reasons for failures. */
        public List<String> errors() {
            return errors;
        }

        void complete() {
            remaining--;
            completed++;
        }

        void warn() {
            remaining--;
            warning++;
        }

        void fail(String error) {
            remaining--;
            failed++;
            if (errors.size() < 5) {
                errors.add(error);
            }
        }
    }

    private static final Logger LOG = Logger.getLogger(StorageSender.class.getName());
    private static final int MAX_CONTEXTS = 128;

    private StorageSender() {
    }

    /**
     * Opens associations to {@code to} (one per 128 SOP class/transfer syntax pairs) and sends {@code files}.
     *
     * @param moveOriginatorAe the AE title that asked for a C-MOVE, or null
     */
    public static Counts send(RemoteAe to, String callingAe, List<Part10File> files, String moveOriginatorAe,
            int moveOriginatorMessageId, Listener listener) {
        return send(to, callingAe, files, moveOriginatorAe, moveOriginatorMessageId, listener, Preparation.AS_STORED);
    }

    /** As {@link #send(RemoteAe, String, List, String, int, Listener)}, each file as {@code preparation} makes it. */
    public static Counts send(RemoteAe to, String callingAe, List<Part10File> files, String moveOriginatorAe,
            int moveOriginatorMessageId, Listener listener, Preparation preparation) {
        Counts counts = new Counts(files.size());
        List<List<Part10File>> batches = batches(files);
        for (List<Part10File> batch : batches) {
            Association association;
            try {
                association = Initiators.open(to, callingAe, contexts(batch), null);
            } catch (DicomNetworkException | IOException | RuntimeException e) {
                for (Part10File f : batch) {
                    counts.fail("cannot associate with " + to + ": " + e.getMessage());
                    listener.done(f, -1, e.getMessage(), counts);
                }
                continue;
            }
            try {
                sendAll(association, batch, moveOriginatorAe, moveOriginatorMessageId, counts, listener,
                        preparation);
            } finally {
                try {
                    association.release();
                } catch (DicomNetworkException e) {
                    // the association is gone either way
                }
            }
        }
        return counts;
    }

    /** Sends {@code files} on an association the peer opened (C-GET), on the contexts it proposed. */
    public static Counts sendOn(Association association, List<Part10File> files, Listener listener) {
        Counts counts = new Counts(files.size());
        sendAll(association, files, null, 0, counts, listener, Preparation.AS_STORED);
        return counts;
    }

    private static void sendAll(Association association, List<Part10File> files, String moveOriginatorAe,
            int moveOriginatorMessageId, Counts counts, Listener listener, Preparation preparation) {
        boolean broken = false;
        for (Part10File f : files) {
            if (broken) {
                counts.fail("the association ended");
                listener.done(f, -1, "the association ended", counts);
                continue;
            }
            Part10File prepared = null;
            try {
                prepared = preparation.prepare(f);
                Response r = sendOne(association, prepared, moveOriginatorAe, moveOriginatorMessageId);
                int status = r.getStatus();
                if (status == DimseStatus.SUCCESS) {
                    counts.complete();
                } else if ((status & 0xF000) == 0xB000) {
                    counts.warn();
                } else {
                    counts.fail(f.sopInstanceUid() + ": status 0x" + Integer.toHexString(status)
                            + (r.comment.isEmpty() ? "" : " (" + r.comment + ")"));
                }
                listener.done(f, status, r.comment, counts);
            } catch (NotSendable e) {
                counts.fail(e.getMessage());
                listener.done(f, -1, e.getMessage(), counts);
            } catch (DicomNetworkException | AReleaseException | DicomException | IOException e) {
                broken = true;
                counts.fail(f.sopInstanceUid() + ": " + e.getMessage());
                listener.done(f, -1, e.getMessage(), counts);
            } finally {
                if (prepared != null) {
                    preparation.done(prepared);
                }
            }
        }
    }

    private static Response sendOne(Association association, Part10File f, String moveOriginatorAe,
            int moveOriginatorMessageId) throws NotSendable, DicomNetworkException, AReleaseException, DicomException,
            IOException {
        Delivery delivery = deliveryFor(association, f);
        byte[] converted = null;
        if (delivery.convertTo() != null) {
            try {
                converted = Transcoder.dataSet(f.file(), f.transferSyntaxUid(), delivery.convertTo());
            } catch (NotTranscodable e) {
                throw refused(f, "the peer takes SOP class " + f.sopClassUid() + " only uncompressed, and "
                        + e.getMessage());
            }
        }
        CStoreRequestCommandMessage command = moveOriginatorAe == null
                ? new CStoreRequestCommandMessage(f.sopClassUid(), f.sopInstanceUid())
                : new CStoreRequestCommandMessage(f.sopClassUid(), f.sopInstanceUid(), moveOriginatorAe,
                        moveOriginatorMessageId);
        Response response = new Response();
        association.setReceivedDataHandler(response);
        association.send(delivery.contextId(), command.getBytes(), null);
        try (OutputStream out = association.getAssociationOutputStream(delivery.contextId())) {
            if (converted != null) {
                out.write(converted);
            } else {
                try (InputStream in = f.openDataSet()) {
                    in.transferTo(out);
                }
            }
        }
        association.waitForPDataPDUsUntilHandlerReportsDone();
        return response;
    }

    /** The presentation context a file goes on, and the syntax it is converted to (null: sent as stored). */
    private record Delivery(byte contextId, String convertTo) {
    }

    /**
     * The file goes as stored when the peer accepted its SOP class in its stored syntax; else converted to the first
     * syntax the peer accepted for the class that the store can convert it to without loss (uncompressed first, then
     * JPEG Lossless SV1, JPEG 2000 lossless, RLE); else it cannot go. Lossy syntaxes serve only what is stored so.
     */
    private static Delivery deliveryFor(Association association, Part10File f) throws NotSendable {
        Byte asStored = contextFor(association, f.sopClassUid(), f.transferSyntaxUid());
        if (asStored != null) {
            return new Delivery(asStored, null);
        }
        String firstWhyNot = null;
        for (String ts : CONVERSIONS) {
            Byte converted = contextFor(association, f.sopClassUid(), ts);
            if (converted != null) {
                String why = TransferSyntaxes.whyNot(f.transferSyntaxUid(), ts, null);
                if (why == null) {
                    return new Delivery(converted, ts);
                }
                firstWhyNot = firstWhyNot == null ? why : firstWhyNot;
            }
        }
        if (firstWhyNot != null) {
            throw refused(f, "the peer does not take SOP class " + f.sopClassUid() + " in "
                    + TransferSyntaxes.name(f.transferSyntaxUid()) + ", and " + firstWhyNot);
        }
        throw refused(f, "the peer accepts SOP class " + f.sopClassUid() + " neither in "
                + TransferSyntaxes.name(f.transferSyntaxUid()) + " nor in a syntax the store converts to without loss");
    }

    /** The syntaxes a file is converted to when the peer does not take its own, in order of preference. */
    private static final List<String> CONVERSIONS = conversions();

    private static List<String> conversions() {
        List<String> all = new ArrayList<>(TransferSyntaxes.FALLBACK);
        all.add(TransferSyntaxes.DEFLATED_LE);
        all.addAll(TransferSyntaxes.LOSSLESS_ENCODED);
        all.addAll(TransferSyntaxes.HTJ2K_ENCODED);
        return List.copyOf(all);
    }

    private static Byte contextFor(Association association, String sopClass, String ts) {
        try {
            return association.getSuitablePresentationContextID(sopClass, ts);
        } catch (DicomNetworkException e) {
            return null;
        }
    }

    private static NotSendable refused(Part10File f, String why) {
        LOG.log(Level.INFO, "{0} not sent: {1}", new Object[] {f.sopInstanceUid(), why});
        return new NotSendable(f.sopInstanceUid() + ": " + why);
    }

    /**
     * Splits the files so that each association needs at most 128 presentation contexts: one per SOP class and
     * stored transfer syntax, and two per SOP class for the uncompressed and compressed conversions.
     */
    private static List<List<Part10File>> batches(List<Part10File> files) {
        List<List<Part10File>> batches = new ArrayList<>();
        List<Part10File> current = new ArrayList<>();
        Set<String> pairs = new HashSet<>();
        Set<String> classes = new HashSet<>();
        for (Part10File f : files) {
            String pair = f.sopClassUid() + "|" + f.transferSyntaxUid();
            int more = (pairs.contains(pair) ? 0 : 1) + (classes.contains(f.sopClassUid()) ? 0 : 2);
            if (pairs.size() + 2 * classes.size() + more > MAX_CONTEXTS) {
                batches.add(current);
                current = new ArrayList<>();
                pairs.clear();
                classes.clear();
            }
            pairs.add(pair);
            classes.add(f.sopClassUid());
            current.add(f);
        }
        if (!current.isEmpty()) {
            batches.add(current);
        }
        return batches;
    }

    /**
     * For each SOP class: a context per stored transfer syntax (so that what the peer takes goes byte for byte as
     * stored), one offering Explicit and Implicit VR Little Endian and one offering the lossless compressed syntaxes
     * the store encodes, HTJ2K last (for what it does not: converted, for peers that take only compressed data).
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    private static LinkedList contexts(List<Part10File> files) {
        LinkedList contexts = new LinkedList();
        Set<String> pairs = new LinkedHashSet<>();
        Set<String> classes = new LinkedHashSet<>();
        for (Part10File f : files) {
            pairs.add(f.sopClassUid() + "|" + f.transferSyntaxUid());
            classes.add(f.sopClassUid());
        }
        int id = 1;
        for (String pair : pairs) {
            String[] p = pair.split("\\|");
            contexts.add(new PresentationContext((byte) id, p[0], p[1]));
            id += 2;
        }
        for (String sopClass : classes) {
            LinkedList uncompressed = new LinkedList(List.of(TransferSyntaxes.EXPLICIT_LE, TransferSyntaxes.IMPLICIT_LE));
            contexts.add(new PresentationContext((byte) id, sopClass, uncompressed));
            id += 2;
            LinkedList compressed = new LinkedList(TransferSyntaxes.LOSSLESS_ENCODED);
            compressed.addAll(TransferSyntaxes.HTJ2K_ENCODED);
            contexts.add(new PresentationContext((byte) id, sopClass, compressed));
            id += 2;
        }
        return contexts;
    }

    /** The C-STORE response (PixelMed's response handler is the public way to receive one). */
    private static final class Response extends CompositeResponseHandler {
        String comment = "";

        @Override
        protected void evaluateStatusAndSetSuccess(AttributeList list) {
            int field = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.CommandField, 0);
            if (field != (DimseMessages.C_STORE_RQ | DimseMessages.RESPONSE)) {
                return; // e.g. a C-CANCEL of the C-GET in progress: keep waiting for the response
            }
            status = Attribute.getSingleIntegerValueOrDefault(list, TagFromName.Status, 0xFFFF);
            comment = Attribute.getSingleStringValueOrEmptyString(list, TagFromName.ErrorComment).trim();
            success = status == DimseStatus.SUCCESS;
            setDone(true);
        }
    }

    /** A file that cannot go: its sub-operation fails with the message, the others go on. */
    public static final class NotSendable extends Exception {
        private static final long serialVersionUID = 1L;

        public NotSendable(String message) {
            super(message);
        }
    }
}
