package org.medjava.codec.dicom;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.SequenceAttribute;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The data elements of a decoded image's header as plain text, for attribute panels and overlays, so that callers
 * need no PixelMed types. Sequences are summarized by their item count; long values are cut.
 */
public final class DicomElements {
    /** Values longer than this are cut (with "…"). */
    public static final int MAX_VALUE_LENGTH = 256;

    /** One data element: {@code tag} as "(0010,0010)", the dictionary keyword (empty if private/unknown). */
    public record Element(String tag, String keyword, String vr, String value) {
    }

    private DicomElements() {
    }

    /** Every element of {@code image}'s header (without Pixel Data), in tag order. */
    public static List<Element> of(DicomImage image) {
        AttributeList header = image.header();
        List<Element> elements = new ArrayList<>(header.size());
        for (Map.Entry<AttributeTag, Attribute> e : new java.util.TreeMap<>(header).entrySet()) {
            elements.add(element(e.getKey(), e.getValue()));
        }
        return elements;
    }

    /** The single string value of the element with dictionary keyword {@code keyword}, or "" when absent. */
    public static String value(DicomImage image, String keyword) {
        AttributeTag tag = AttributeList.getDictionary().getTagFromName(keyword);
        return tag == null ? "" : Attribute.getDelimitedStringValuesOrEmptyString(image.header(), tag).trim();
    }

    private static Element element(AttributeTag tag, Attribute a) {
        String keyword = AttributeList.getDictionary().getNameFromTag(tag);
        String vr = a.getVR() == null ? "" : new String(a.getVR(), java.nio.charset.StandardCharsets.US_ASCII);
        String value;
        if (a instanceof SequenceAttribute sequence) {
            int n = sequence.getNumberOfItems();
            value = "[" + n + (n == 1 ? " item]" : " items]");
        } else {
            value = a.getDelimitedStringValuesOrEmptyString().trim();
        }
        if (value.length() > MAX_VALUE_LENGTH) {
            value = value.substring(0, MAX_VALUE_LENGTH) + "…";
        }
        return new Element(String.format("(%04X,%04X)", tag.getGroup(), tag.getElement()),
                keyword == null ? "" : keyword, vr, value);
    }
}
