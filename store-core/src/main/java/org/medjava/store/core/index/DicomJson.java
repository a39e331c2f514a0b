package org.medjava.store.core.index;

import com.pixelmed.dicom.Attribute;
import com.pixelmed.dicom.AttributeList;
import com.pixelmed.dicom.AttributeTag;
import com.pixelmed.dicom.DicomException;
import com.pixelmed.dicom.DicomOutputStream;
import com.pixelmed.dicom.SequenceAttribute;
import com.pixelmed.dicom.SequenceItem;
import com.pixelmed.dicom.TransferSyntax;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import javax.json.Json;
import javax.json.stream.JsonGenerator;
import javax.json.stream.JsonGeneratorFactory;

/**
 * Writes DICOM attributes as the DICOM JSON model (PS3.18 F.2): upper-case tag keys, {@code vr}, {@code Value}
 * (numbers for IS, DS and the binary numeric VRs; person names as Alphabetic/Ideographic/Phonetic groups),
 * {@code InlineBinary}, or {@code BulkDataURI} for large binary values. Group 0002, group lengths and Specific
 * Character Set (JSON text is Unicode) are left out.
 *
 * <p>Bulk data URIs are written relative to {@value #INSTANCE_URL}, a placeholder the web layer replaces with the
 * instance's URL when it serves the metadata (the index does not know where it is served from).
 */
public final class DicomJson {

    /** The placeholder for the instance's WADO-RS URL in stored metadata. */
    public static final String INSTANCE_URL = "{{instance}}";

    /** Not written: DICOM JSON is always UTF-8, whatever the source's character set was. */
    private static final AttributeTag SPECIFIC_CHARACTER_SET = new AttributeTag(0x0008, 0x0005);
    private static final JsonGeneratorFactory JSON = Json.createGeneratorFactory(Map.of());
    private static final Set<String> BINARY = Set.of("OB", "OD", "OF", "OL", "OV", "OW", "UN");
    private static final Set<String> INTEGERS = Set.of("SS", "US", "SL", "UL", "SV", "UV");
    /** VRs whose explicit little endian element header is 12 bytes (the others' is 8). */
    private static final Set<String> LONG_HEADER = Set.of("OB", "OD", "OF", "OL", "OV", "OW", "UN", "SQ", "UC",
            "UR", "UT");
    /** Text VRs in which leading spaces are significant. */
    private static final Set<String> TEXT = Set.of("LT", "ST", "UT", "UC", "UR");
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private DicomJson() {
    }

    /**
     * One data set as a JSON object.
     *
     * @param bulkThreshold top-level binary values longer than this many bytes become a BulkDataURI
     *                      ({@value #INSTANCE_URL}{@code /bulk/GGGGEEEE}); 0 inlines everything
     */
    public static String toJson(AttributeList list, int bulkThreshold) {
        StringWriter out = new StringWriter(4096);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            writeAttributes(g, list, bulkThreshold);
            g.writeEnd();
        }
        return out.toString();
    }

    /** Writes the attributes of {@code list} as members of the object being generated. */
    public static void writeAttributes(JsonGenerator g, AttributeList list, int bulkThreshold) {
        for (Object o : list.values()) {
            Attribute a = (Attribute) o;
            AttributeTag tag = a.getTag();
            if (tag.getGroup() == 0x0002 || tag.getElement() == 0x0000 || tag.getGroup() == 0xFFFC
                    || tag.getGroup() == 0xFFFE || tag.equals(SPECIFIC_CHARACTER_SET)) {
                continue;
            }
            g.writeStartObject(key(tag));
            try {
                writeAttribute(g, a, bulkThreshold);
            } catch (DicomException e) {
                throw new IllegalStateException("cannot write " + key(tag) + " as JSON: " + e.getMessage(), e);
            }
            g.writeEnd();
        }
    }

    /** The tag as the JSON key: 8 upper-case hex digits. */
    public static String key(AttributeTag tag) {
        return hex8(tag.getGroup(), tag.getElement());
    }

    /** Two 16-bit values as 8 upper-case hex digits (String.format costs more than the rest of the JSON). */
    private static String hex8(int high, int low) {
        int v = (high & 0xFFFF) << 16 | (low & 0xFFFF);
        char[] c = new char[8];
        for (int i = 7; i >= 0; i--, v >>>= 4) {
            c[i] = HEX[v & 0xF];
        }
        return new String(c);
    }

    private static void writeAttribute(JsonGenerator g, Attribute a, int bulkThreshold) throws DicomException {
        String vr = a.getVRAsString();
        g.write("vr", vr);
        if (a instanceof SequenceAttribute sq) {
            if (sq.getNumberOfItems() > 0) {
                g.writeStartArray("Value");
                for (int i = 0; i < sq.getNumberOfItems(); i++) {
                    SequenceItem item = sq.getItem(i);
                    g.writeStartObject();
                    writeAttributes(g, item.getAttributeList(), 0);
                    g.writeEnd();
                }
                g.writeEnd();
            }
            return;
        }
        if (BINARY.contains(vr)) {
            if (bulkThreshold > 0 && a.getVL() > bulkThreshold) { // without copying it: a document may be 1 GiB
                g.write("BulkDataURI", INSTANCE_URL + "/bulk/" + key(a.getTag()));
                return;
            }
            byte[] bytes = valueBytes(a, vr);
            if (bytes.length == 0) {
                return;
            }
            if (bulkThreshold > 0 && bytes.length > bulkThreshold) {
                g.write("BulkDataURI", INSTANCE_URL + "/bulk/" + key(a.getTag()));
            } else {
                g.write("InlineBinary", Base64.getEncoder().encodeToString(bytes));
            }
            return;
        }
        if (vr.equals("AT")) {
            byte[] b = valueBytes(a, vr);
            if (b.length >= 4) {
                g.writeStartArray("Value");
                for (int i = 0; i + 3 < b.length; i += 4) {
                    g.write(hex8((b[i] & 0xff) | (b[i + 1] & 0xff) << 8, (b[i + 2] & 0xff) | (b[i + 3] & 0xff) << 8));
                }
                g.writeEnd();
            }
            return;
        }
        if (a.getVM() == 0) {
            return;
        }
        g.writeStartArray("Value");
        if (INTEGERS.contains(vr)) {
            for (long v : a.getLongValues()) {
                g.write(v);
            }
        } else if (vr.equals("FL") || vr.equals("FD")) {
            for (double v : a.getDoubleValues()) {
                if (Double.isFinite(v)) {
                    g.write(v);
                } else {
                    g.writeNull();
                }
            }
        } else {
            for (String v : a.getStringValues()) {
                writeString(g, vr, v);
            }
        }
        g.writeEnd();
    }

    private static void writeString(JsonGenerator g, String vr, String raw) {
        String v = raw == null ? "" : TEXT.contains(vr) ? stripEnd(raw) : raw.trim();
        if (v.isEmpty()) {
            g.writeNull();
            return;
        }
        switch (vr) {
            case "PN" -> {
                String[] groups = v.split("=", -1);
                g.writeStartObject();
                writeGroup(g, "Alphabetic", groups, 0);
                writeGroup(g, "Ideographic", groups, 1);
                writeGroup(g, "Phonetic", groups, 2);
                g.writeEnd();
            }
            case "IS" -> {
                try {
                    g.write(Long.parseLong(v.startsWith("+") ? v.substring(1) : v));
                } catch (NumberFormatException e) {
                    g.write(v); // malformed: kept as it is rather than lost
                }
            }
            case "DS" -> {
                try {
                    g.write(new BigDecimal(v.startsWith("+") ? v.substring(1) : v));
                } catch (NumberFormatException e) {
                    g.write(v);
                }
            }
            default -> g.write(v);
        }
    }

    private static void writeGroup(JsonGenerator g, String name, String[] groups, int i) {
        if (i < groups.length && !groups[i].isEmpty()) {
            g.write(name, groups[i]);
        }
    }

    private static String stripEnd(String s) {
        int end = s.length();
        while (end > 0 && (s.charAt(end - 1) == ' ' || s.charAt(end - 1) == 0)) {
            end--;
        }
        return s.substring(0, end);
    }

    /** The value as encoded in explicit VR little endian (the binary VRs' and AT's bytes). */
    public static byte[] valueBytes(Attribute a, String vr) throws DicomException {
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(1 << 20, a.getVL() + 16));
        try {
            DicomOutputStream dout = new DicomOutputStream(out, null, TransferSyntax.ExplicitVRLittleEndian);
            a.write(dout);
            dout.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in memory
        }
        byte[] all = out.toByteArray();
        int header = LONG_HEADER.contains(vr) ? 12 : 8;
        return java.util.Arrays.copyOfRange(all, Math.min(header, all.length), all.length);
    }
}
