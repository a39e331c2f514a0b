package org.medjava.store.net.dimse;

import com.pixelmed.network.DicomNetworkException;
import java.io.IOException;

/** What the store answers on an association: the services by command, with the settings they share. */
final class DimseServices {

    private final DimseSettings settings;
    private final RequestReceiver.Staging staging;
    private final StoreScp store;
    private final FindScp find;
    private final RetrieveScp retrieve;

    DimseServices(DimseSettings settings, RequestReceiver.Staging staging, StoreScp store, FindScp find,
            RetrieveScp retrieve) {
        this.settings = settings;
        this.staging = staging;
        this.store = store;
        this.find = find;
        this.retrieve = retrieve;
    }

    String aeTitle() {
        return settings.aeTitle();
    }

    int maxPduLength() {
        return settings.maxPduLength();
    }

    RequestReceiver.Staging staging() {
        return staging;
    }

    /** Answers one request; returns whether an object was stored. */
    boolean handle(Exchange x) throws DicomNetworkException, IOException {
        switch (x.request().commandField()) {
            case DimseMessages.C_ECHO_RQ -> x.send(x.response(DimseStatus.SUCCESS));
            case DimseMessages.C_STORE_RQ -> {
                return store.handle(x);
            }
            case DimseMessages.C_FIND_RQ -> find.handle(x);
            case DimseMessages.C_MOVE_RQ, DimseMessages.C_GET_RQ -> retrieve.handle(x);
            case DimseMessages.C_CANCEL_RQ -> {
                // requests are answered completely before the next is read: nothing is running to cancel
            }
            default -> x.send(x.response(DimseStatus.UNRECOGNIZED_OPERATION).errorComment(x.request().name()
                    + " is not supported"));
        }
        return false;
    }
}
