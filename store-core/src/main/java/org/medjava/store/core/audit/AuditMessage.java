package org.medjava.store.core.audit;

import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import org.medjava.store.core.audit.AuditEvent.Participant;
import org.medjava.store.core.audit.AuditEvent.ParticipantObject;
import org.medjava.store.core.audit.AuditEvent.SopClass;

/**
 * An {@link AuditEvent} as a DICOM audit message (PS3.15 A.5.1, the RFC 3881 schema as DICOM profiles it), on one
 * line: every value is escaped, and line breaks or control characters in it become character references or U+FFFD,
 * so a hostile user name or path can neither break the XML nor start a new line of the audit log.
 */
public final class AuditMessage {

    private AuditMessage() {
    }

    public static String toXml(AuditEvent e, AuditSource source) {
        StringBuilder x = new StringBuilder(1024);
        x.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?><AuditMessage>");
        x.append("<EventIdentification");
        attr(x, "EventActionCode", String.valueOf(e.action()));
        attr(x, "EventDateTime", DateTimeFormatter.ISO_INSTANT.format(e.time().truncatedTo(ChronoUnit.MILLIS)));
        attr(x, "EventOutcomeIndicator", Integer.toString(e.outcome().code));
        x.append('>');
        code(x, "EventID", e.id());
        e.types().forEach(t -> code(x, "EventTypeCode", t));
        if (e.outcomeDescription() != null) {
            element(x, "EventOutcomeDescription", e.outcomeDescription());
        }
        x.append("</EventIdentification>");
        for (Participant p : e.participants()) {
            participant(x, p, source);
        }
        x.append("<AuditSourceIdentification");
        if (source.site() != null) {
            attr(x, "AuditEnterpriseSiteID", source.site());
        }
        attr(x, "AuditSourceID", source.id());
        x.append('>');
        code(x, "AuditSourceTypeCode", Coded.dcm("4", "Application Server"));
        x.append("</AuditSourceIdentification>");
        for (ParticipantObject o : e.objects()) {
            object(x, o);
        }
        return x.append("</AuditMessage>").toString();
    }

    private static void participant(StringBuilder x, Participant p, AuditSource source) {
        boolean self = p.userId() == null;
        String address = self ? source.host() : p.address();
        x.append("<ActiveParticipant");
        attr(x, "UserID", self ? source.id() : p.userId());
        String alternative = self ? "AETITLES=" + source.aeTitle() : p.alternativeUserId();
        if (alternative != null) {
            attr(x, "AlternativeUserID", alternative);
        }
        attr(x, "UserIsRequestor", Boolean.toString(p.requestor()));
        if (address != null) {
            attr(x, "NetworkAccessPointID", address);
            attr(x, "NetworkAccessPointTypeCode", self ? "1"
                    : Integer.toString(p.addressType()));
        }
        if (p.roles().isEmpty()) {
            x.append("/>");
            return;
        }
        x.append('>');
        p.roles().forEach(r -> code(x, "RoleIDCode", r));
        x.append("</ActiveParticipant>");
    }

    private static void object(StringBuilder x, ParticipantObject o) {
        x.append("<ParticipantObjectIdentification");
        attr(x, "ParticipantObjectID", o.id());
        attr(x, "ParticipantObjectTypeCode", Integer.toString(o.type()));
        if (o.role() > 0) {
            attr(x, "ParticipantObjectTypeCodeRole", Integer.toString(o.role()));
        }
        x.append('>');
        code(x, "ParticipantObjectIDTypeCode", o.idType());
        if (o.query() != null) {
            x.append("<ParticipantObjectQuery>").append(java.util.Base64.getEncoder().encodeToString(o.query()))
                    .append("</ParticipantObjectQuery>");
        }
        if (o.description() != null) {
            element(x, "ParticipantObjectDescription", o.description());
        }
        for (SopClass c : o.sopClasses()) {
            x.append("<SOPClass");
            attr(x, "UID", c.uid());
            attr(x, "NumberOfInstances", Integer.toString(c.instanceUids().size()));
            x.append('>');
            for (String uid : c.instanceUids()) {
                x.append("<Instance");
                attr(x, "UID", uid);
                x.append("/>");
            }
            x.append("</SOPClass>");
        }
        x.append("</ParticipantObjectIdentification>");
    }

    private static void code(StringBuilder x, String name, Coded c) {
        x.append('<').append(name);
        attr(x, "csd-code", c.code());
        attr(x, "codeSystemName", c.system());
        attr(x, "originalText", c.text());
        x.append("/>");
    }

    private static void element(StringBuilder x, String name, String text) {
        x.append('<').append(name).append('>');
        escape(x, text);
        x.append("</").append(name).append('>');
    }

    private static void attr(StringBuilder x, String name, String value) {
        x.append(' ').append(name).append("=\"");
        escape(x, value);
        x.append('"');
    }

    /** Escapes for text and attribute values alike; characters XML 1.0 cannot hold become U+FFFD. */
    static void escape(StringBuilder x, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> x.append("&amp;");
                case '<' -> x.append("&lt;");
                case '>' -> x.append("&gt;");
                case '"' -> x.append("&quot;");
                case '\'' -> x.append("&apos;");
                case '\n' -> x.append("&#10;");
                case '\r' -> x.append("&#13;");
                case '\t' -> x.append("&#9;");
                default -> {
                    if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                        x.append(c).append(s.charAt(++i));
                    } else if (c < 0x20 || Character.isSurrogate(c) || c == 0xFFFE || c == 0xFFFF
                            || (c >= 0x7F && c <= 0x9F)) {
                        x.append('\uFFFD');
                    } else {
                        x.append(c);
                    }
                }
            }
        }
    }
}
