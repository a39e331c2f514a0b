package org.medjava.store.net.dicomweb;

/**
 * One form in which a DICOMweb resource can be sent: single part or {@code multipart/related}, the media type of
 * the body or of each part, and the transfer syntax of the DICOM or pixel data in it.
 *
 * @param mediaType      of the body, or of each part when multipart
 * @param transferSyntax a UID; null where none applies (JSON, rendered images) or, as stored, when the instances
 *                       are stored in several syntaxes
 * @param asStored       the stored bytes themselves, nothing converted
 * @param whyNot         null when the store can send this; else why not (said in a 406 when nothing else fits)
 */
public record Representation(boolean multipart, String mediaType, String transferSyntax, boolean asStored,
                             String whyNot) {

    public static Representation single(String mediaType, String transferSyntax, boolean asStored, String whyNot) {
        return new Representation(false, mediaType, transferSyntax, asStored, whyNot);
    }

    public static Representation multipart(String mediaType, String transferSyntax, boolean asStored,
                                           String whyNot) {
        return new Representation(true, mediaType, transferSyntax, asStored, whyNot);
    }

    /** A single-part form with no transfer syntax, always available (JSON, rendered images). */
    public static Representation single(String mediaType) {
        return single(mediaType, null, true, null);
    }

    public boolean available() {
        return whyNot == null;
    }

    /** The same form, single part or multipart. */
    public Representation asMultipart(boolean multipart) {
        return new Representation(multipart, mediaType, transferSyntax, asStored, whyNot);
    }

    /** The Content-Type of the body (single part) or of each part: {@code image/jpeg; transfer-syntax=...}. */
    public String partContentType() {
        return transferSyntax == null ? mediaType : mediaType + "; transfer-syntax=" + transferSyntax;
    }

    /** How a client asks for this, for messages. */
    public String describe() {
        String ts = transferSyntax == null ? (asStored && multipartOrDicom() ? "; transfer-syntax=*" : "")
                : "; transfer-syntax=" + transferSyntax + (asStored ? " (as stored, also transfer-syntax=*)" : "");
        return (multipart ? "multipart/related; type=\"" + mediaType + "\"" : mediaType) + ts;
    }

    private boolean multipartOrDicom() {
        return multipart || mediaType.equals("application/dicom");
    }
}
