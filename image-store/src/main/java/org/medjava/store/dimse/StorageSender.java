package org.medjava.store.dimse;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.network.AReleaseException;
import com.pixelmed.network.Association;
import com.pixelmed.network.AssociationFactory;
import com.pixelmed.network.CStoreRequestCommandMessage;
import com.pixelmed.network.CompositeResponseHandler;
import com.pixelmed.network.DicomNetworkException;
import com.pixelmed.network.PresentationContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Set;

/**
 * C-STORE SCU for stored files: each data set is sent byte for byte as stored, in the transfer syntax it is stored
 * in, on a presentation context negotiated for exactly that SOP class and transfer syntax (PixelMed's own storage
 * SCU picks contexts by SOP class alone and then tries to convert, which garbles compressed data). A file whose
 * syntax the peer does not accept fails alone. Used for C-MOVE (a new association to the destination), C-GET (the
 * requester's association) and the store's "send to a remote PACS".
 */
public final class StorageSender {

    /** Hears about each sub-operation as it completes. */
    public interface Listener {
        void done(Part10File file, int status, String error, Counts counts);
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
        Counts counts = new Counts(files.size());
        List<List<Part10File>> batches = batches(files);
        for (List<Part10File> batch : batches) {
            Association association;
            try {
                association = AssociationFactory.createNewAssociation(to.host(), to.port(), to.aeTitle(), callingAe,
                        contexts(batch), null, false);
            } catch (DicomNetworkException | IOException | RuntimeException e) {
                for (Part10File f : batch) {
                    counts.fail("cannot associate with " + to + ": " + e.getMessage());
                    listener.done(f, -1, e.getMessage(), counts);
                }
                continue;
            }
            try {
                sendAll(association, batch, moveOriginatorAe, moveOriginatorMessageId, counts, listener);
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
        sendAll(association, files, null, 0, counts, listener);
        return counts;
    }

    private static void sendAll(Association association, List<Part10File> files, String moveOriginatorAe,
            int moveOriginatorMessageId, Counts counts, Listener listener) {
        boolean broken = false;
        for (Part10File f : files) {
            if (broken) {
                counts.fail("the association ended");
                listener.done(f, -1, "the association ended", counts);
                continue;
            }
            try {
                Response r = sendOne(association, f, moveOriginatorAe, moveOriginatorMessageId);
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
            } catch (NoContext e) {
                counts.fail(e.getMessage());
                listener.done(f, -1, e.getMessage(), counts);
            } catch (DicomNetworkException | AReleaseException | DicomException | IOException e) {
                broken = true;
                counts.fail(f.sopInstanceUid() + ": " + e.getMessage());
                listener.done(f, -1, e.getMessage(), counts);
            }
        }
    }

    private static Response sendOne(Association association, Part10File f, String moveOriginatorAe,
            int moveOriginatorMessageId) throws NoContext, DicomNetworkException, AReleaseException, DicomException,
            IOException {
        byte pcid;
        try {
            pcid = association.getSuitablePresentationContextID(f.sopClassUid(), f.transferSyntaxUid());
        } catch (DicomNetworkException e) {
            throw new NoContext(f.sopInstanceUid() + ": the peer does not accept SOP class " + f.sopClassUid()
                    + " in transfer syntax " + f.transferSyntaxUid());
        }
        CStoreRequestCommandMessage command = moveOriginatorAe == null
                ? new CStoreRequestCommandMessage(f.sopClassUid(), f.sopInstanceUid())
                : new CStoreRequestCommandMessage(f.sopClassUid(), f.sopInstanceUid(), moveOriginatorAe,
                        moveOriginatorMessageId);
        Response response = new Response();
        association.setReceivedDataHandler(response);
        association.send(pcid, command.getBytes(), null);
        try (InputStream in = f.openDataSet(); OutputStream out = association.getAssociationOutputStream(pcid)) {
            in.transferTo(out);
        }
        association.waitForPDataPDUsUntilHandlerReportsDone();
        return response;
    }

    /** One presentation context per SOP class and transfer syntax, at most 128 per association. */
    private static List<List<Part10File>> batches(List<Part10File> files) {
        List<List<Part10File>> batches = new ArrayList<>();
        List<Part10File> current = new ArrayList<>();
        Set<String> pairs = new LinkedHashSet<>();
        for (Part10File f : files) {
            String pair = f.sopClassUid() + "|" + f.transferSyntaxUid();
            if (!pairs.contains(pair) && pairs.size() == MAX_CONTEXTS) {
                batches.add(current);
                current = new ArrayList<>();
                pairs.clear();
            }
            pairs.add(pair);
            current.add(f);
        }
        if (!current.isEmpty()) {
            batches.add(current);
        }
        return batches;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static LinkedList contexts(List<Part10File> files) {
        LinkedList contexts = new LinkedList();
        Set<String> pairs = new LinkedHashSet<>();
        for (Part10File f : files) {
            pairs.add(f.sopClassUid() + "|" + f.transferSyntaxUid());
        }
        int id = 1;
        for (String pair : pairs) {
            String[] p = pair.split("\\|");
            contexts.add(new PresentationContext((byte) id, p[0], p[1]));
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

    private static final class NoContext extends Exception {
        private static final long serialVersionUID = 1L;

        NoContext(String message) {
            super(message);
        }
    }
}
