package org.medjava.store.net.scu;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomInputStream;
import com.pixelmed.dicom.DicomOutputStream;
import com.pixelmed.dicom.FileMetaInformation;
import com.pixelmed.dicom.SOPClass;
import com.pixelmed.dicom.TagFromName;
import com.pixelmed.dicom.TransferSyntax;
import com.pixelmed.network.AReleaseException;
import com.pixelmed.network.Association;
import com.pixelmed.network.CGetRequestCommandMessage;
import com.pixelmed.network.CMoveRequestCommandMessage;
import com.pixelmed.network.CStoreResponseCommandMessage;
import com.pixelmed.network.CompositeResponseHandler;
import com.pixelmed.network.DicomNetworkException;
import com.pixelmed.network.PDataPDU;
import com.pixelmed.network.PresentationContext;
import com.pixelmed.network.PresentationDataValue;
import com.pixelmed.network.SCUSCPRoleSelection;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Set;
import org.medjava.store.net.dimse.Initiators;
import org.medjava.store.net.dimse.RemoteAe;
import org.medjava.store.net.dimse.ScpAcceptance;

/**
 * C-GET and C-MOVE as SCU on PixelMed's association layer (its own SCUs propose only uncompressed syntaxes for a
 * C-GET and report only the final status of a C-MOVE). For a C-GET the store proposes, for each SOP class to
 * retrieve, what its own SCP would keep ({@link ScpAcceptance}): one context with the uncompressed syntaxes and one
 * context per other syntax, so that a peer that does not transcode finds a context for every object as it holds it;
 * the storage classes go with an SCP role selection (PS3.7 D.3.3.4). Every C-GET and C-MOVE response is read: the
 * pending ones give progress, the final one the counts and the Failed SOP Instance UID List.
 */
public final class RetrieveScu {

    static final int C_STORE_RQ = 0x0001;
    static final int C_GET_RSP = 0x8010;
    static final int C_MOVE_RSP = 0x8021;
    static final int NO_DATA_SET = 0x0101;
    /** PS3.8: presentation context IDs are odd, 1 to 255. */
    static final int MAX_CONTEXTS = 128;

    /** (0008,0058) Failed SOP Instance UID List (PixelMed's dictionary has no keyword for it). */
    static final com.pixelmed.dicom.AttributeTag FAILED_SOP_INSTANCE_UID_LIST =
            new com.pixelmed.dicom.AttributeTag(0x0008, 0x0058);

    private static final List<String> UNCOMPRESSED = List.of(TransferSyntax.ExplicitVRLittleEndian,
            TransferSyntax.ImplicitVRLittleEndian, TransferSyntax.ExplicitVRBigEndian);

    /** The final response of a C-GET or C-MOVE, with the counts of its sub-operations. */
    record Outcome(int status, int completed, int failed, int warning, List<String> failedSopInstances,
                   String errorComment) {
    }

    /** Where the objects a C-GET delivers go. */
    interface Sink {
        Path newFile() throws IOException;

        /** Keeps a received Part 10 file; returns the C-STORE status to answer (0 when kept). */
        int received(Path file, String sopClassUid, String sopInstanceUid);
    }

    /** Hears the counts of each pending response. */
    interface Progress {
        void update(int done, int total);
    }

    private RetrieveScu() {
    }

    /**
     * The contexts a C-GET proposes: the retrieve model's (uncompressed), then for each SOP class one context with
     * the uncompressed syntaxes the SCP accepts and one per other accepted syntax.
     */
    public static List<PresentationContext> getContexts(String getSopClass, Collection<String> sopClasses) {
        List<PresentationContext> contexts = new ArrayList<>();
        int id = 1;
        contexts.add(new PresentationContext((byte) id, getSopClass, new LinkedList<>(List.of(
                TransferSyntax.ExplicitVRLittleEndian, TransferSyntax.ImplicitVRLittleEndian))));
        for (String sopClass : sopClasses) {
            List<String> accepted = ScpAcceptance.acceptedTransferSyntaxes(sopClass);
            LinkedList<String> uncompressed = new LinkedList<>(UNCOMPRESSED);
            uncompressed.retainAll(accepted);
            if (!uncompressed.isEmpty()) {
                id += 2;
                contexts.add(new PresentationContext((byte) id, sopClass, uncompressed));
            }
            for (String ts : accepted) {
                if (!UNCOMPRESSED.contains(ts)) {
                    id += 2;
                    contexts.add(new PresentationContext((byte) id, sopClass, ts));
                }
            }
        }
        return contexts;
    }

    /** How many contexts {@link #getContexts} proposes for one SOP class. */
    static int contextsPerClass(String sopClass) {
        List<String> accepted = ScpAcceptance.acceptedTransferSyntaxes(sopClass);
        long uncompressed = accepted.stream().filter(UNCOMPRESSED::contains).count();
        return (int) (accepted.size() - uncompressed) + (uncompressed > 0 ? 1 : 0);
    }

    /** C-GET of {@code identifier}; the objects go to {@code sink}. */
    static Outcome get(RemoteAe r, String callingAe, String getSopClass, AttributeList identifier,
            Collection<String> sopClasses, Sink sink, Progress progress) throws DicomNetworkException, DicomException,
            IOException {
        LinkedList<PresentationContext> contexts = new LinkedList<>(getContexts(getSopClass, sopClasses));
        if (contexts.size() > MAX_CONTEXTS) {
            throw new IllegalArgumentException(contexts.size() + " presentation contexts are more than "
                    + MAX_CONTEXTS);
        }
        LinkedList<SCUSCPRoleSelection> roles = new LinkedList<>();
        for (String sopClass : new LinkedHashSet<>(sopClasses)) {
            roles.add(new SCUSCPRoleSelection(sopClass, false, true));
        }
        Association association = Initiators.open(r, callingAe, contexts, roles);
        return exchange(association, getSopClass, new CGetRequestCommandMessage(getSopClass).getBytes(),
                identifier, sink, progress, C_GET_RSP);
    }

    /** The one context a C-MOVE proposes. */
    public static List<PresentationContext> moveContexts(String moveSopClass) {
        return List.of(new PresentationContext((byte) 1, moveSopClass, new LinkedList<>(List.of(
                TransferSyntax.ExplicitVRLittleEndian, TransferSyntax.ImplicitVRLittleEndian))));
    }

    /** C-MOVE of {@code identifier} to {@code destination}. */
    static Outcome move(RemoteAe r, String callingAe, String moveSopClass, String destination,
            AttributeList identifier, Progress progress) throws DicomNetworkException, DicomException, IOException {
        LinkedList<PresentationContext> contexts = new LinkedList<>(moveContexts(moveSopClass));
        Association association = Initiators.open(r, callingAe, contexts, null);
        return exchange(association, moveSopClass, new CMoveRequestCommandMessage(moveSopClass, destination)
                .getBytes(), identifier, null, progress, C_MOVE_RSP);
    }

    private static Outcome exchange(Association association, String sopClass, byte[] command,
            AttributeList identifier, Sink sink, Progress progress, int responseField) throws DicomNetworkException,
            DicomException, IOException {
        try {
            byte pcid = association.getSuitablePresentationContextID(sopClass);
            String ts = association.getTransferSyntaxForPresentationContextID(pcid);
            Handler handler = new Handler(association, sink, progress, responseField, ts);
            association.setReceivedDataHandler(handler);
            association.send(pcid, command, encode(identifier, ts));
            association.waitForPDataPDUsUntilHandlerReportsDone();
            handler.discard();
            if (handler.outcome == null) {
                throw new DicomNetworkException("the association ended before the final response");
            }
            return handler.outcome;
        } catch (AReleaseException e) {
            throw new DicomNetworkException("the remote released the association before the final response");
        } finally {
            try {
                association.release();
            } catch (DicomNetworkException e) {
                // gone either way
            }
        }
    }

    static byte[] encode(AttributeList list, String transferSyntaxUid) throws DicomException, IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        DicomOutputStream dout = new DicomOutputStream(out, null, transferSyntaxUid);
        list.write(dout);
        dout.close();
        return out.toByteArray();
    }

    static AttributeList decode(byte[] bytes, String transferSyntaxUid) throws DicomException, IOException {
        AttributeList list = new AttributeList();
        list.read(new DicomInputStream(new ByteArrayInputStream(bytes), transferSyntaxUid, false));
        return list;
    }

    /** The outcome a final (or pending) response's command and identifier say. */
    static Outcome outcome(AttributeList command, AttributeList identifier) {
        List<String> failedUids = new ArrayList<>();
        if (identifier != null) {
            Attribute a = identifier.get(FAILED_SOP_INSTANCE_UID_LIST);
            if (a != null) {
                try {
                    for (String uid : a.getStringValues()) {
                        if (uid != null && !uid.isBlank()) {
                            failedUids.add(uid.trim());
                        }
                    }
                } catch (DicomException e) {
                    // an unreadable list: the counts still say how many failed
                }
            }
        }
        return new Outcome(Attribute.getSingleIntegerValueOrDefault(command, TagFromName.Status, 0xFFFF),
                count(command, TagFromName.NumberOfCompletedSuboperations),
                count(command, TagFromName.NumberOfFailedSuboperations),
                count(command, TagFromName.NumberOfWarningSuboperations), failedUids,
                Attribute.getSingleStringValueOrEmptyString(command, TagFromName.ErrorComment).trim());
    }

    private static int count(AttributeList command, com.pixelmed.dicom.AttributeTag tag) {
        return Attribute.getSingleIntegerValueOrDefault(command, tag, 0);
    }

    static boolean pending(int status) {
        return status == 0xFF00 || status == 0xFF01;
    }

    /**
     * Reads what the remote sends on the association: C-GET/C-MOVE responses, and for a C-GET the C-STORE requests
     * of its sub-operations, each stored through the sink and answered before the next. It extends
     * {@link CompositeResponseHandler} because that is PixelMed's handler with a public constructor; everything it
     * does is overridden.
     */
    private static final class Handler extends CompositeResponseHandler {
        private final Association association;
        private final Sink sink;
        private final Progress progress;
        private final int responseField;
        private final String identifierSyntax;
        private final ByteArrayOutputStream commandBytes = new ByteArrayOutputStream(256);
        private AttributeList command;
        private byte commandContext;
        private ByteArrayOutputStream identifier;
        private Path file;
        private OutputStream fileOut;
        private IOException fileFailure;
        Outcome outcome;

        Handler(Association association, Sink sink, Progress progress, int responseField, String identifierSyntax) {
            this.association = association;
            this.sink = sink;
            this.progress = progress;
            this.responseField = responseField;
            this.identifierSyntax = identifierSyntax;
        }

        @Override
        public void sendPDataIndication(PDataPDU pdata, Association a) throws DicomNetworkException,
                DicomException, IOException {
            for (Object o : pdata.getPDVList()) {
                PresentationDataValue pdv = (PresentationDataValue) o;
                if (pdv.isCommand()) {
                    command(pdv);
                } else {
                    data(pdv);
                }
            }
        }

        private void command(PresentationDataValue pdv) throws DicomException, IOException, DicomNetworkException {
            commandBytes.write(pdv.getValue());
            if (!pdv.isLastFragment()) {
                return;
            }
            command = decode(commandBytes.toByteArray(), TransferSyntax.ImplicitVRLittleEndian);
            commandBytes.reset();
            commandContext = pdv.getPresentationContextID();
            boolean dataFollows = Attribute.getSingleIntegerValueOrDefault(command, TagFromName.CommandDataSetType,
                    NO_DATA_SET) != NO_DATA_SET;
            int field = field();
            if (field == C_STORE_RQ && sink != null) {
                if (!dataFollows) {
                    answerStore(0xC000);
                }
            } else if (field == responseField && !dataFollows) {
                response(null);
            } else if (!dataFollows) {
                command = null; // something else (a C-CANCEL echo, an N- message): nothing to do
            }
        }

        private int field() {
            return Attribute.getSingleIntegerValueOrDefault(command, TagFromName.CommandField, -1);
        }

        private void data(PresentationDataValue pdv) throws DicomException, IOException, DicomNetworkException {
            if (command == null) {
                throw new DicomNetworkException("a data set arrived before its command");
            }
            if (field() == C_STORE_RQ && sink != null) {
                storeData(pdv);
                return;
            }
            if (identifier == null) {
                identifier = new ByteArrayOutputStream(1024);
            }
            identifier.write(pdv.getValue());
            if (pdv.isLastFragment()) {
                byte[] bytes = identifier.toByteArray();
                identifier = null;
                AttributeList list = null;
                if (field() == responseField) {
                    try {
                        list = decode(bytes, identifierSyntax);
                    } catch (DicomException | IOException e) {
                        list = null; // an identifier we cannot read: the counts still tell
                    }
                    response(list);
                } else {
                    command = null;
                }
            }
        }

        private void storeData(PresentationDataValue pdv) throws DicomException, IOException,
                DicomNetworkException {
            if (fileOut == null && fileFailure == null) {
                try {
                    file = sink.newFile();
                    fileOut = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
                    fileOut.write(fileMeta());
                } catch (IOException e) {
                    fileFailure = e;
                }
            }
            if (fileOut != null && fileFailure == null) {
                try {
                    fileOut.write(pdv.getValue());
                } catch (IOException e) {
                    fileFailure = e;
                }
            }
            if (!pdv.isLastFragment()) {
                return;
            }
            int status;
            try {
                if (fileOut != null) {
                    fileOut.close();
                }
            } catch (IOException e) {
                fileFailure = fileFailure == null ? e : fileFailure;
            }
            fileOut = null;
            if (fileFailure != null) {
                status = 0xA700;
                deleteQuietly(file);
            } else {
                status = sink.received(file, string(TagFromName.AffectedSOPClassUID),
                        string(TagFromName.AffectedSOPInstanceUID));
            }
            file = null;
            fileFailure = null;
            answerStore(status);
        }

        private byte[] fileMeta() throws IOException, DicomNetworkException {
            try {
                String ts = association.getTransferSyntaxForPresentationContextID(commandContext);
                FileMetaInformation meta = new FileMetaInformation(string(TagFromName.AffectedSOPClassUID),
                        string(TagFromName.AffectedSOPInstanceUID), ts, association.getCalledAETitle());
                ByteArrayOutputStream bytes = new ByteArrayOutputStream(512);
                DicomOutputStream out = new DicomOutputStream(bytes, TransferSyntax.ExplicitVRLittleEndian, null);
                meta.getAttributeList().write(out);
                out.close();
                return bytes.toByteArray();
            } catch (DicomException e) {
                throw new IOException("cannot write the file meta information: " + e.getMessage(), e);
            }
        }

        private String string(com.pixelmed.dicom.AttributeTag tag) {
            return Attribute.getSingleStringValueOrEmptyString(command, tag).trim();
        }

        private void answerStore(int status) throws DicomException, IOException, DicomNetworkException {
            CStoreResponseCommandMessage rsp = new CStoreResponseCommandMessage(
                    string(TagFromName.AffectedSOPClassUID), string(TagFromName.AffectedSOPInstanceUID),
                    Attribute.getSingleIntegerValueOrDefault(command, TagFromName.MessageID, 0), status);
            association.send(commandContext, rsp.getBytes(), null);
            command = null;
        }

        private void response(AttributeList identifierList) {
            Outcome o = outcome(command, identifierList);
            int remaining = Attribute.getSingleIntegerValueOrDefault(command,
                    TagFromName.NumberOfRemainingSuboperations, 0);
            command = null;
            int done = o.completed() + o.failed() + o.warning();
            if (pending(o.status())) {
                if (progress != null) {
                    progress.update(done, done + remaining);
                }
                return;
            }
            outcome = o;
            if (progress != null) {
                progress.update(done, done);
            }
            setDone(true);
        }

        void discard() {
            if (fileOut != null) {
                try {
                    fileOut.close();
                } catch (IOException e) {
                    // discarded anyway
                }
            }
            deleteQuietly(file);
        }

        @Override
        protected void evaluateStatusAndSetSuccess(AttributeList list) {
            // not used: sendPDataIndication is overridden
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // the staging directory is emptied at the next start
            }
        }
    }

    /** The SOP classes that are storage classes the store's SCP accepts (what a C-GET can bring). */
    static Set<String> retrievable(Collection<String> sopClasses) {
        Set<String> out = new LinkedHashSet<>();
        for (String c : sopClasses) {
            // storage classes newer than PixelMed's list are under the Annex B root
            boolean storage = c != null && (SOPClass.isStorage(c) || c.startsWith("1.2.840.10008.5.1.4.1.1."));
            if (storage && ScpAcceptance.acceptsAbstractSyntax(c)) {
                out.add(c);
            }
        }
        return out;
    }
}
