package org.medjava.store.server.pacs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.medjava.store.core.testsupport.LargeDicom;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.TestStudy;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.pacs.PacsStore;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * What an administrator reads after a store has worked: the audit trail ({@code logs/audit.log}, one DICOM audit
 * message a line) holds the logins, writes, deletes, plugin changes and DICOM associations with their outcome; the
 * access log has every request without patient data; the server log is plain text.
 */
@ExtendWith(PacsStore.class)
class LogsAndAuditIT {

    /** A patient name sent as a query value: it must reach no log file. */
    private static final String NAME_IN_QUERY = "SECRETNAME^PRIVATE";

    @TempDir
    static Path work;
    static StoreClient admin;
    static Path logs;
    static TestStudy study;
    static String storescu;

    @BeforeAll
    static void work() throws Exception {
        PayaraStore store = PacsStore.store();
        admin = StoreClient.admin(store);
        logs = store.dataDir().resolve("logs");
        StoreClient wrong = new StoreClient(store, PayaraStore.basic("admin", "not-the-password"));
        assertThat(wrong.getJson("/index/studies").statusCode()).isEqualTo(401);
        assertThat(new StoreClient(store, PayaraStore.basic("audit-nobody", "x")).getJson("/index/studies")
                .statusCode()).isEqualTo(401);
        assertThat(admin.sendText(admin.request("/auth/login").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"username\":\"admin\",\"password\":\""
                        + PayaraStore.ADMIN_PASSWORD + "\"}"))).statusCode()).isEqualTo(200);
        assertThat(admin.put("/images/audit-it/a.gif", Samples.bytes(Samples.gif("ct-small.gif"))).statusCode())
                .isEqualTo(201);
        assertThat(admin.delete("/images/audit-it/a.gif").statusCode()).isEqualTo(204);
        assertThat(admin.sendText(admin.request("/filters/blur/suspend").POST(HttpRequest.BodyPublishers.noBody()))
                .statusCode()).isEqualTo(200);
        assertThat(admin.sendText(admin.request("/filters/blur/resume").POST(HttpRequest.BodyPublishers.noBody()))
                .statusCode()).isEqualTo(200);
        assertThat(admin.getJson("/dicomweb/studies?PatientName=" + URLEncoder.encode(NAME_IN_QUERY,
                StandardCharsets.UTF_8) + "&limit=5").statusCode()).isIn(200, 204);
        study = TestStudy.create(work.resolve("audit"), "AUDIT-IT", "CT_small.dcm");
        TestStudy.Instance ct = study.instances().get(0);
        storescu = Dcmtk.store(ct.storescuOptions(), ct.file()).assertOk().output();
        java.nio.file.Files.createDirectories(work.resolve("got"));
        Dcmtk.get(work.resolve("got"), "QueryRetrieveLevel=STUDY", "StudyInstanceUID=" + study.studyUid()).assertOk();
        Dcmtk.echo("STRANGER", PacsStore.AE); // not an allowed AE: the association is refused
    }

    /** The audit messages written so far, parsed (each line must be a well-formed message). */
    static List<Document> audit() throws Exception {
        List<Document> messages = new ArrayList<>();
        for (String line : Files.readAllLines(logs.resolve("audit.log"), StandardCharsets.UTF_8)) {
            messages.add(DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new ByteArrayInputStream(line.getBytes(StandardCharsets.UTF_8))));
        }
        return messages;
    }

    /** Waits (briefly) for an audit message: a request's record is written as the request ends. */
    static Document find(String what, Predicate<Document> matches) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            for (Document d : audit()) {
                if (matches.test(d)) {
                    return d;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no audit message for " + what + " in " + logs.resolve("audit.log"));
            }
            Thread.sleep(100);
        }
    }

    static Element first(Document d, String element) {
        return (Element) d.getElementsByTagName(element).item(0);
    }

    static String eventId(Document d) {
        return first(d, "EventID").getAttribute("csd-code");
    }

    static String outcome(Document d) {
        return first(d, "EventIdentification").getAttribute("EventOutcomeIndicator");
    }

    static String typeCode(Document d) {
        Element t = first(d, "EventTypeCode");
        return t == null ? "" : t.getAttribute("csd-code");
    }

    static String requestor(Document d) {
        var participants = d.getElementsByTagName("ActiveParticipant");
        for (int i = 0; i < participants.getLength(); i++) {
            Element p = (Element) participants.item(i);
            if (p.getAttribute("UserIsRequestor").equals("true")) {
                return p.getAttribute("UserID");
            }
        }
        return null;
    }

    static boolean names(Document d, String objectId) {
        var objects = d.getElementsByTagName("ParticipantObjectIdentification");
        for (int i = 0; i < objects.getLength(); i++) {
            if (((Element) objects.item(i)).getAttribute("ParticipantObjectID").equals(objectId)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void theStartIsAudited() throws Exception {
        find("application start", d -> eventId(d).equals("110100") && typeCode(d).equals("110120"));
    }

    @Test
    void loginsAndFailedLoginsAreAudited() throws Exception {
        Document failed = find("a wrong password", d -> eventId(d).equals("110114") && outcome(d).equals("4")
                && "admin".equals(requestor(d)));
        assertThat(first(failed, "EventOutcomeDescription").getTextContent()).contains("wrong");
        find("an unknown user", d -> eventId(d).equals("110114") && outcome(d).equals("4")
                && "audit-nobody".equals(requestor(d)));
        Document login = find("the session login", d -> eventId(d).equals("110114") && outcome(d).equals("0")
                && "admin".equals(requestor(d)) && typeCode(d).equals("110122"));
        assertThat(first(login, "ActiveParticipant").getAttribute("NetworkAccessPointID")).isEqualTo("127.0.0.1");
    }

    @Test
    void aPutAndADeleteAreAuditedWithTheirUser() throws Exception {
        Document put = find("the PUT", d -> eventId(d).equals("110104") && names(d, "audit-it/a.gif"));
        assertThat(outcome(put)).isEqualTo("0");
        assertThat(first(put, "EventIdentification").getAttribute("EventActionCode")).isEqualTo("C");
        assertThat(requestor(put)).isEqualTo("admin");
        Document delete = find("the DELETE", d -> eventId(d).equals("110103") && names(d, "audit-it/a.gif"));
        assertThat(outcome(delete)).isEqualTo("0");
        assertThat(first(delete, "EventIdentification").getAttribute("EventActionCode")).isEqualTo("D");
    }

    @Test
    void aPluginSuspendIsAudited() throws Exception {
        Document suspend = find("the suspend", d -> eventId(d).equals("110113") && names(d, "filters/blur.jar")
                && first(d, "ParticipantObjectDescription").getTextContent().equals("suspend"));
        assertThat(outcome(suspend)).isEqualTo("0");
        assertThat(typeCode(suspend)).isEqualTo("110131");
        assertThat(requestor(suspend)).isEqualTo("admin");
    }

    @Test
    void aCStoreAndItsAssociationAreAuditedAsTheCallingAe() throws Exception {
        find("the association", d -> eventId(d).equals("110114") && outcome(d).equals("0")
                && "STORESCU".equals(requestor(d)));
        Document stored = find("the C-STORE", d -> eventId(d).equals("110104") && names(d, study.studyUid()));
        assertThat(requestor(stored)).isEqualTo("STORESCU");
        assertThat(outcome(stored)).isEqualTo(storescu.contains("Received Store Response (Success)") ? "0" : "4");
        assertThat(names(stored, "AUDIT-IT")).as("the Patient ID, as PS3.15 asks").isTrue();
        Document refused = find("the refused association", d -> eventId(d).equals("110114")
                && "STRANGER".equals(requestor(d)));
        assertThat(outcome(refused)).isEqualTo("4");
    }

    @Test
    void aRetrieveServedByTheStoreIsAuditedAsAReadOfTheCallingAe() throws Exception {
        assertThat(admin.getJson("/audit/events?limit=1").statusCode()).isEqualTo(200); // records the open window
        Document sent = find("the C-GET", d -> eventId(d).equals("110103") && names(d, study.studyUid())
                && first(d, "EventIdentification").getAttribute("EventActionCode").equals("R"));
        assertThat(requestor(sent)).isEqualTo("GETSCU");
        assertThat(outcome(sent)).isEqualTo("0");
        assertThat(names(sent, "AUDIT-IT")).isTrue();
        assertThat(first(sent, "ParticipantObjectDescription").getTextContent())
                .startsWith("1 instances read over dimse");
    }

    @Test
    void theAccessLogHasTheRequestsAndNoPatientData() throws Exception {
        String access = Files.readString(logs.resolve("access.log"), StandardCharsets.UTF_8);
        assertThat(access).containsPattern("(?m)^\\S+ 127\\.0\\.0\\.1 admin PUT /images/audit-it/a\\.gif 201 \\d+ \\d+$");
        assertThat(access).containsPattern("(?m)^\\S+ 127\\.0\\.0\\.1 admin DELETE /images/audit-it/a\\.gif 204 0 \\d+$");
        assertThat(access).containsPattern("(?m)^\\S+ 127\\.0\\.0\\.1 - GET /index/studies 401 \\d+ \\d+$");
        assertThat(access).containsPattern(" GET /dicomweb/studies\\?PatientName=\\*\\*\\*&limit=5 20[04] ");
        assertThat(access).doesNotContain("SECRETNAME").doesNotContain("AUDIT-IT");
    }

    @Test
    void theServerLogIsPlainTextWithoutPatientNames() throws Exception {
        Path log = logs.resolve("medjava.log");
        assertThat(log).exists();
        String text = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("\u001b").doesNotContain(NAME_IN_QUERY);
        assertThat(text).containsPattern("(?m)^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) INFO "
                + "StoreAssembly \\[[^]]*\\] audit trail ");
        for (String line : text.split("\n")) {
            assertThat(line).matches("(\\d{4}-\\d\\d-\\d\\dT\\S+ [A-Z]+ \\S+ \\[.*\\] .*|    .*)");
        }
    }
    /** A viewer that scrolls past an image hangs up mid-download: the client's business, not an error in the log. */
    @Test
    void aClientThatHangsUpMidDownloadIsNotAnErrorInTheLog() throws Exception {
        byte[] big = LargeDicom.secondaryCapture(TestStudy.newUid(), 4000); // 16 MB: more than the socket buffers
        assertThat(admin.put("/images/audit-it/big.dcm", big).statusCode()).isEqualTo(201);
        Path log = logs.resolve("medjava.log");
        long before = Files.size(log);
        int hangups = 3;
        for (int i = 0; i < hangups; i++) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", PacsStore.store().port())) {
                socket.getOutputStream().write(("GET /images/audit-it/big.dcm HTTP/1.1\r\nHost: 127.0.0.1:"
                        + PacsStore.store().port() + "\r\nAuthorization: " + PayaraStore.admin() + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                assertThat(socket.getInputStream().readNBytes(64 << 10)).hasSize(64 << 10);
                socket.setSoLinger(true, 0); // a reset, as a browser tab closing does
            }
        }
        // each request ends (in the access log) once the store noticed; then the log must say nothing of it
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (Files.readAllLines(logs.resolve("access.log"), StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains(" GET /images/audit-it/big.dcm ")).count() < hangups
                && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(Files.readAllLines(logs.resolve("access.log"), StandardCharsets.UTF_8).stream()
                .filter(l -> l.contains(" GET /images/audit-it/big.dcm ")).count()).isEqualTo(hangups);
        String after;
        try (java.io.InputStream in = Files.newInputStream(log)) {
            in.skipNBytes(before);
            after = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(after).doesNotContain("SEVERE", "Connection closed", "Broken pipe")
                .doesNotContainPattern("(?m)^\\s+at [a-z]"); // no stack trace
        // and the store serves the file whole to the next client
        assertThat(admin.get("/images/audit-it/big.dcm").body()).isEqualTo(big);
    }
}
