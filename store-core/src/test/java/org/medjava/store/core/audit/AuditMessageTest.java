package org.medjava.store.core.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class AuditMessageTest {

    static final AuditSource SOURCE = new AuditSource("MEDJAVA@pacs1", "Radiology", "MEDJAVA", "pacs1");

    /** Parses the message, failing on XML that is not well-formed. */
    static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    static List<Element> elements(Document d, String name) {
        NodeList nodes = d.getElementsByTagName(name);
        List<Element> list = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            list.add((Element) nodes.item(i));
        }
        return list;
    }

    /** The parts every message has (PS3.15 A.5.1): identification, participants, source; in that order. */
    static Document checkStructure(AuditEvent event, String eventId, String action, int outcome) throws Exception {
        String xml = AuditMessage.toXml(event, SOURCE);
        assertFalse(xml.contains("\n") || xml.contains("\r"), "one line: " + xml);
        Document d = parse(xml);
        Element root = d.getDocumentElement();
        assertEquals("AuditMessage", root.getTagName());
        List<String> order = new ArrayList<>();
        for (int i = 0; i < root.getChildNodes().getLength(); i++) {
            order.add(root.getChildNodes().item(i).getNodeName());
        }
        assertEquals("EventIdentification", order.get(0));
        assertEquals("ActiveParticipant", order.get(1));
        int source = order.indexOf("AuditSourceIdentification");
        assertTrue(source > 1 && order.subList(1, source).stream().allMatch("ActiveParticipant"::equals), "" + order);
        assertTrue(order.subList(source + 1, order.size()).stream()
                .allMatch("ParticipantObjectIdentification"::equals), "" + order);
        Element id = elements(d, "EventIdentification").get(0);
        assertEquals(action, id.getAttribute("EventActionCode"));
        assertEquals(Integer.toString(outcome), id.getAttribute("EventOutcomeIndicator"));
        assertTrue(id.getAttribute("EventDateTime").matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z"));
        Element eventIdElement = elements(d, "EventID").get(0);
        assertEquals(eventId, eventIdElement.getAttribute("csd-code"));
        assertEquals("DCM", eventIdElement.getAttribute("codeSystemName"));
        assertFalse(eventIdElement.getAttribute("originalText").isEmpty());
        Element src = elements(d, "AuditSourceIdentification").get(0);
        assertEquals("MEDJAVA@pacs1", src.getAttribute("AuditSourceID"));
        assertEquals("Radiology", src.getAttribute("AuditEnterpriseSiteID"));
        for (Element p : elements(d, "ActiveParticipant")) {
            assertFalse(p.getAttribute("UserID").isEmpty());
            assertTrue(p.getAttribute("UserIsRequestor").matches("true|false"));
        }
        return d;
    }

    @Test
    void aLoginNamesTheUserItsAddressAndTheStore() throws Exception {
        Document d = checkStructure(AuditEvents.login(Caller.account("alice", "10.0.0.5"), true, null),
                "110114", "E", 0);
        assertEquals("110122", elements(d, "EventTypeCode").get(0).getAttribute("csd-code"));
        Element alice = elements(d, "ActiveParticipant").get(0);
        assertEquals("alice", alice.getAttribute("UserID"));
        assertEquals("true", alice.getAttribute("UserIsRequestor"));
        assertEquals("10.0.0.5", alice.getAttribute("NetworkAccessPointID"));
        assertEquals("2", alice.getAttribute("NetworkAccessPointTypeCode"));
        Element store = elements(d, "ActiveParticipant").get(1);
        assertEquals("MEDJAVA@pacs1", store.getAttribute("UserID"));
        assertEquals("AETITLES=MEDJAVA", store.getAttribute("AlternativeUserID"));
        assertEquals("false", store.getAttribute("UserIsRequestor"));
        assertTrue(elements(d, "EventOutcomeDescription").isEmpty());
    }

    @Test
    void aFailedLoginSaysWhyWithOutcomeFour() throws Exception {
        Document d = checkStructure(AuditEvents.login(Caller.account("mallory", "192.0.2.9"), false,
                "wrong user name or password"), "110114", "E", 4);
        assertEquals("wrong user name or password", elements(d, "EventOutcomeDescription").get(0).getTextContent());
    }

    @Test
    void aStoredDicomObjectNamesItsStudyInstanceAndPatientIdButNoName() throws Exception {
        StoredObject o = new StoredObject("dicom/P1/1.2.3/1.2.3.4/1.2.3.4.5.dcm", "1.2.3", "1.2.840.10008.5.1.4.1.1.2",
                "1.2.3.4.5", "P1");
        Document d = checkStructure(AuditEvents.stored(Caller.dicom("STORESCU", "127.0.0.1"), o, false),
                "110104", "C", 0);
        Element sender = elements(d, "ActiveParticipant").get(0);
        assertEquals("STORESCU", sender.getAttribute("UserID"));
        assertEquals("AETITLES=STORESCU", sender.getAttribute("AlternativeUserID"));
        assertEquals("110153", ((Element) sender.getElementsByTagName("RoleIDCode").item(0)).getAttribute("csd-code"));
        Element store = elements(d, "ActiveParticipant").get(1);
        assertEquals("110152", ((Element) store.getElementsByTagName("RoleIDCode").item(0)).getAttribute("csd-code"));
        List<Element> objects = elements(d, "ParticipantObjectIdentification");
        assertEquals(2, objects.size());
        Element study = objects.get(0);
        assertEquals("1.2.3", study.getAttribute("ParticipantObjectID"));
        assertEquals("2", study.getAttribute("ParticipantObjectTypeCode"));
        assertEquals("110180", ((Element) study.getElementsByTagName("ParticipantObjectIDTypeCode").item(0))
                .getAttribute("csd-code"));
        Element sop = (Element) study.getElementsByTagName("SOPClass").item(0);
        assertEquals("1.2.840.10008.5.1.4.1.1.2", sop.getAttribute("UID"));
        assertEquals("1", sop.getAttribute("NumberOfInstances"));
        assertEquals("1.2.3.4.5", ((Element) sop.getElementsByTagName("Instance").item(0)).getAttribute("UID"));
        Element patient = objects.get(1);
        assertEquals("P1", patient.getAttribute("ParticipantObjectID"));
        assertEquals("1", patient.getAttribute("ParticipantObjectTypeCode"));
        assertEquals("1", patient.getAttribute("ParticipantObjectTypeCodeRole"));
        assertTrue(elements(d, "ParticipantObjectName").isEmpty(), "no patient name");
    }

    @Test
    void aReplacedObjectIsAnUpdateAndARefusedOneAFailure() throws Exception {
        StoredObject png = StoredObject.file("samples/a.png");
        Document replaced = checkStructure(AuditEvents.stored(Caller.account("bob", "::1"), png, true), "110104", "U", 0);
        Element object = elements(replaced, "ParticipantObjectIdentification").get(0);
        assertEquals("samples/a.png", object.getAttribute("ParticipantObjectID"));
        assertEquals("12", ((Element) object.getElementsByTagName("ParticipantObjectIDTypeCode").item(0))
                .getAttribute("csd-code"));
        checkStructure(AuditEvents.storeRefused(Caller.account("bob", null), png, false, "415"), "110104", "C", 4);
        checkStructure(AuditEvents.storeRefused(null, png, true, "disk full"), "110104", "C", 8);
    }

    @Test
    void deletesPluginsAccountsTransfersAndTheApplication() throws Exception {
        checkStructure(AuditEvents.deleted(Caller.account("bob", "10.1.1.1"), StoredObject.file("x.gif"), true, null),
                "110103", "D", 0);
        Document plugin = checkStructure(AuditEvents.pluginChanged(Caller.account("admin", "10.1.1.1"), "blur",
                "suspend", true, null), "110113", "U", 0);
        assertEquals("110131", elements(plugin, "EventTypeCode").get(0).getAttribute("csd-code"));
        assertEquals("filters/blur.jar", elements(plugin, "ParticipantObjectIdentification").get(0)
                .getAttribute("ParticipantObjectID"));
        checkStructure(AuditEvents.pluginChanged(null, "blur", "install", false, "rejected"), "110113", "C", 4);
        checkStructure(AuditEvents.pluginChanged(null, "blur", "remove", true, null), "110113", "D", 0);
        Document account = checkStructure(AuditEvents.accountChanged(Caller.account("admin", null), "carol",
                "create", "uploader", java.util.List.of("cardiology", "neuro")), "110113", "C", 0);
        assertEquals("110137", elements(account, "EventTypeCode").get(0).getAttribute("csd-code"));
        assertEquals("carol", elements(account, "ParticipantObjectIdentification").get(0)
                .getAttribute("ParticipantObjectID"));
        assertEquals("create, role uploader, projects cardiology neuro",
                elements(account, "ParticipantObjectDescription").get(0).getTextContent());
        checkStructure(AuditEvents.accountChanged(null, "carol", "remove", null, null), "110113", "D", 0);
        Document retrieve = checkStructure(AuditEvents.exchanged(null, true, "ORTHANC", "127.0.0.1", "1.2.3", true,
                "C-MOVE"), "110104", "C", 0);
        assertEquals("ORTHANC", elements(retrieve, "ActiveParticipant").get(1).getAttribute("UserID"));
        checkStructure(AuditEvents.exchanged(Caller.account("bob", "10.0.0.1"), false, "ORTHANC", "127.0.0.1", null,
                false, "2 failed"), "110104", "R", 4);
        Document start = checkStructure(AuditEvents.application(true, "medjava"), "110100", "E", 0);
        assertEquals("110120", elements(start, "EventTypeCode").get(0).getAttribute("csd-code"));
        checkStructure(AuditEvents.application(false, "medjava"), "110100", "E", 0);
        checkStructure(AuditEvents.logout(Caller.account("alice", null)), "110114", "E", 0);
        checkStructure(AuditEvents.login(null, true, null), "110114", "E", 0); // nobody: "anonymous"
    }

    @Test
    void hostileStringsStayTextOnOneLine() throws Exception {
        String hostile = "x\"/><ActiveParticipant UserID=\"root\" UserIsRequestor=\"true\"/>&amp;'\n"
                + "2025-01-01 forged line\r\u0000\u001b[31m\uD800\tend";
        Document d = checkStructure(AuditEvents.login(Caller.account(hostile, hostile), false, hostile),
                "110114", "E", 4);
        assertEquals(2, elements(d, "ActiveParticipant").size(), "no injected participant");
        Element user = elements(d, "ActiveParticipant").get(0);
        assertTrue(user.getAttribute("UserID").startsWith("x\"/><ActiveParticipant UserID=\"root\""));
        assertTrue(user.getAttribute("UserID").contains("&amp;'\n2025-01-01 forged line\r"));
        assertFalse(user.getAttribute("UserID").contains("\u0000"));
        assertTrue(elements(d, "EventOutcomeDescription").get(0).getTextContent().endsWith("\uFFFD[31m\uFFFD\tend"));
    }
}
