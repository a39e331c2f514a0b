package org.medjava.store.net.dimse;

import org.medjava.store.core.ingest.DicomRules;
import com.pixelmed.network.DicomNetworkException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.medjava.store.core.ingest.Ingest;
import org.medjava.store.core.ingest.Expected;
import org.medjava.store.core.ingest.IngestFailure;
import org.medjava.store.core.StoreException;

/**
 * C-STORE SCP: the received object is stored through {@link Ingest} before the response is sent, so a
 * success means it is in the store and the index. Failures answer with their status and an ErrorComment.
 */
final class StoreScp {

    private static final Logger LOG = Logger.getLogger(StoreScp.class.getName());

    private final Ingest ingest;

    StoreScp(Ingest ingest) {
        this.ingest = ingest;
    }

    /** @return whether the object was stored */
    boolean handle(Exchange x) throws DicomNetworkException, IOException {
        Request rq = x.request();
        DimseMessages.Response response = store(x, rq).sopInstance(rq.sopInstanceUid());
        ingest.metrics().dicomStored("c-store", IngestFailure.Reason.label(response.status()));
        ScpStoreOutcomes.report(x.callingAe(), rq.sopInstanceUid(), response.status(), response.reason());
        x.send(response);
        return response.status() == DimseStatus.SUCCESS;
    }

    private DimseMessages.Response store(Exchange x, Request rq) {
        if (!DicomRules.isStorageSopClass(rq.sopClassUid())) {
            return x.response(DimseStatus.SOP_CLASS_NOT_SUPPORTED)
                    .errorComment(DicomRules.Problem.NOT_STORAGE.words + ": " + rq.sopClassUid());
        }
        if (!DicomRules.isKept(rq.sopClassUid())) { // not accepted in negotiation either
            return x.response(DimseStatus.SOP_CLASS_NOT_SUPPORTED).errorComment(DicomRules.notKept(rq.sopClassUid()));
        }
        Exception failure = x.received().dataFailure();
        if (failure instanceof StoreException refused) { // an expected refusal (a nearly full disk): no stack trace
            LOG.log(Level.INFO, "C-STORE from {0} of {1} refused: {2}", new Object[] {x.callingAe(),
                    rq.sopInstanceUid(), refused.getMessage()});
            return x.response(DimseStatus.OUT_OF_RESOURCES).errorComment(refused.getMessage());
        }
        if (failure != null) {
            LOG.log(Level.WARNING, "C-STORE from " + x.callingAe() + ": the data set could not be kept", failure);
            return x.response(DimseStatus.OUT_OF_RESOURCES).errorComment("cannot keep the data set: "
                    + failure.getMessage());
        }
        Path staged = x.received().stagedFile();
        if (staged == null) {
            return x.response(DimseStatus.UNABLE_TO_PROCESS).errorComment("the C-STORE request had no data set");
        }
        try {
            ingest.receive(staged, Expected.sop(rq.sopClassUid(), rq.sopInstanceUid()), x.caller());
            return x.response(DimseStatus.SUCCESS);
        } catch (IngestFailure e) {
            LOG.log(Level.INFO, "C-STORE from {0} of {1} refused (0x{2}): {3}", new Object[] {x.callingAe(),
                    rq.sopInstanceUid(), Integer.toHexString(e.status()), e.getMessage()});
            return x.response(e.status()).errorComment(e.getMessage());
        }
    }
}
