package org.medjava.viewer.image;

/** What the store receives on upload. */
public enum UploadFormat {
    GIF("GIF (256 colours, as MedJava did)", "gif", "image/gif"),
    PNG("PNG (lossless)", "png", "image/png"),
    DICOM("Derived DICOM series (new UIDs, source referenced, filters recorded)", "dcm", "application/dicom");

    private final String label;
    private final String extension;
    private final String mediaType;

    UploadFormat(String label, String extension, String mediaType) {
        this.label = label;
        this.extension = extension;
        this.mediaType = mediaType;
    }

    public String extension() {
        return extension;
    }

    public String mediaType() {
        return mediaType;
    }

    @Override
    public String toString() {
        return label;
    }
}
