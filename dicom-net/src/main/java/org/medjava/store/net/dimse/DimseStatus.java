package org.medjava.store.net.dimse;

/** DIMSE status codes (PS3.7 Annex C, PS3.4 Annex C) that the store's services answer with. */
final class DimseStatus {
    static final int SUCCESS = 0x0000;
    static final int PENDING = 0xFF00;
    static final int PENDING_OPTIONAL_KEYS_NOT_SUPPORTED = 0xFF01;
    static final int CANCELLED = 0xFE00;
    static final int UNRECOGNIZED_OPERATION = 0x0211;
    static final int SOP_CLASS_NOT_SUPPORTED = 0x0122;
    static final int OUT_OF_RESOURCES = 0xA700;
    /** C-MOVE: the destination AE title is not configured. */
    static final int MOVE_DESTINATION_UNKNOWN = 0xA801;
    static final int IDENTIFIER_DOES_NOT_MATCH_SOP_CLASS = 0xA900;
    static final int UNABLE_TO_PROCESS = 0xC000;
    /** C-MOVE/C-GET: sub-operations complete, one or more failed. */
    static final int SUB_OPERATIONS_FAILED = 0xB000;

    private DimseStatus() {
    }
}
