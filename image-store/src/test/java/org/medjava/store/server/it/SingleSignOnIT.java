package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.medjava.store.testkit.Command;
import org.medjava.store.testkit.Ports;
import org.medjava.store.testkit.Samples;
import org.medjava.store.testkit.pacs.Dcmtk;
import org.medjava.store.testkit.peers.Keycloak;
import org.medjava.store.testkit.store.PayaraStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * Single sign-on against a real OpenID provider (Keycloak, its own process): the provider's access tokens as Bearer
 * on the HTTP and DICOMweb doors (the front's reads included), roles from the realm's roles (one through
 * {@code medjava.oidc.role-map}), a machine client's client-credentials token, refusals (no role 403; another
 * audience, a forged signature, {@code alg=none}, an unknown key while the provider is down: 401, never a 5xx),
 * the provider's key rotation, and the browser login (authorization code with PKCE) through the provider's own login
 * form, ending in the store's session cookie. Every refusal is audited.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SingleSignOnIT {
    static final String STUDY_FILE = "/images/it/sso/ct.dcm";

    static Keycloak keycloak;
    static PayaraStore store;
    static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build(); // follows no redirect

    @BeforeAll
    @Timeout(value = 8, unit = TimeUnit.MINUTES) // Keycloak's first start builds its server (about a minute alone)
    static void start() throws Exception {
        keycloak = Keycloak.start();
        store = PayaraStore.named("sso")
                .property("medjava.oidc.issuer", keycloak.issuer())
                .property("medjava.oidc.client-id", Keycloak.CLIENT)
                .property("medjava.oidc.client-secret", Keycloak.CLIENT_SECRET)
                .property("medjava.oidc.role-map", "pacs-admins=admin")
                .start();
        HttpResponse<String> put = StoreClient.admin(store).put(STUDY_FILE, Samples.dicom("CT_small.dcm"));
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
        if (keycloak != null) {
            keycloak.close();
        }
    }

    static HttpResponse<String> get(String path, String token) throws Exception {
        return http.send(HttpRequest.newBuilder(store.uri(path)).header("Authorization", "Bearer " + token)
                .header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    @Order(1)
    void aReadersTokenReadsOnEveryDoorAndWritesNothing() throws Exception {
        String alice = keycloak.password("alice", "alice-password");

        HttpResponse<String> me = get("/auth/me", alice);
        assertThat(me.statusCode()).as(me.body()).isEqualTo(200);
        assertThat(me.body()).contains("\"user\":\"alice\"", "\"role\":\"reader\"", "\"via\":\"oidc\"");
        assertThat(get("/dicomweb/studies", alice).statusCode()).isEqualTo(200);
        for (int i = 0; i < 3; i++) { // the first read is the container's, the next ones the front's
            HttpResponse<String> read = get(STUDY_FILE, alice);
            assertThat(read.statusCode()).as("read " + i).isEqualTo(200);
        }
        HttpResponse<String> write = http.send(HttpRequest.newBuilder(store.uri("/images/it/sso/alice.dcm"))
                .header("Authorization", "Bearer " + alice).header("Content-Type", "application/dicom")
                .PUT(HttpRequest.BodyPublishers.ofFile(Samples.dicom("MR_small.dcm"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(write.statusCode()).as(write.body()).isEqualTo(403);
    }

    @Test
    @Order(2)
    void aMachineClientsTokenUploadsAndAMappedRoleAdministers() throws Exception {
        String router = keycloak.clientCredentials("router", "router-client-secret");
        HttpResponse<String> put = http.send(HttpRequest.newBuilder(store.uri("/images/it/sso/router.dcm"))
                .header("Authorization", "Bearer " + router).header("Content-Type", "application/dicom")
                .PUT(HttpRequest.BodyPublishers.ofFile(Samples.dicom("MR_small.dcm"))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);

        String bob = keycloak.password("bob", "bob-password");
        HttpResponse<String> users = get("/admin/users", bob);
        assertThat(users.statusCode()).as(users.body()).isEqualTo(200);
        assertThat(get("/admin/users", router).statusCode()).isEqualTo(403);
    }

    @Test
    @Order(3)
    void aTokenWithoutAStoreRoleSeesNothing() throws Exception {
        String carol = keycloak.password("carol", "carol-password");

        HttpResponse<String> studies = get("/dicomweb/studies", carol);
        assertThat(studies.statusCode()).isEqualTo(403);
        assertThat(studies.body()).contains("no MedJava role").doesNotContain("1.2.");
        assertThat(get(STUDY_FILE, carol).statusCode()).isEqualTo(403);
    }

    @Test
    @Order(4)
    void tokensForAnotherAudienceForgedOrUnsignedAreRefusedWithAReason() throws Exception {
        String elsewhere = keycloak.clientCredentials("elsewhere", "elsewhere-client-secret");
        HttpResponse<String> other = get("/dicomweb/studies", elsewhere);
        assertThat(other.statusCode()).isEqualTo(401);
        assertThat(other.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v ->
                assertThat(v).startsWith("Bearer error=\"invalid_token\"").containsIgnoringCase("audience"));

        String alice = keycloak.password("alice", "alice-password");
        String[] parts = alice.split("\\.");
        byte[] signature = Base64.getUrlDecoder().decode(parts[2]);
        signature[10] ^= 1;
        String forged = parts[0] + "." + parts[1] + "." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(signature);
        String header = Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}"
                .getBytes(StandardCharsets.UTF_8));
        String unsigned = header + "." + parts[1] + ".";
        for (String bad : List.of(forged, unsigned, "eyJhbGciOiJSUzI1NiJ9.e30.AAAA")) {
            for (String path : List.of("/dicomweb/studies", STUDY_FILE, "/auth/me")) {
                HttpResponse<String> r = get(path, bad);
                assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(401);
            }
        }
        String audit = Files.readString(store.dataDir().resolve("logs/audit.log"), StandardCharsets.UTF_8);
        assertThat(audit).contains("OpenID token not accepted");
    }

    @Test
    @Order(5)
    void tokensSignedWithTheProvidersNewKeyAreAcceptedAfterARotation() throws Exception {
        String before = keycloak.password("alice", "alice-password");
        keycloak.rotateKeys();
        String after = keycloak.password("alice", "alice-password");
        assertThat(keyId(after)).isNotEqualTo(keyId(before));

        HttpResponse<String> r = get("/dicomweb/studies", after);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        assertThat(get("/dicomweb/studies", before).statusCode()).as("the old key is still published").isEqualTo(200);
    }

    static String keyId(String jwt) {
        String header = new String(Base64.getUrlDecoder().decode(jwt.substring(0, jwt.indexOf('.'))),
                StandardCharsets.UTF_8);
        Matcher m = Pattern.compile("\"kid\"\\s*:\\s*\"([^\"]+)\"").matcher(header);
        assertThat(m.find()).isTrue();
        return m.group(1);
    }

    @Test
    @Order(6)
    void theBrowserLogsInThroughTheProvidersPageAndGetsASession() throws Exception {
        HttpResponse<String> described = http.send(HttpRequest.newBuilder(store.uri("/auth/oidc")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(described.body()).contains("\"enabled\":true", "\"issuer\":\"" + keycloak.issuer() + "\"",
                "\"nativeClientId\":\"medjava-viewer\"");

        Browser browser = new Browser();
        HttpResponse<String> end = browser.login("alice", "alice-password", "/viewer/#/studies");

        assertThat(end.statusCode()).as(end.body()).isEqualTo(303);
        assertThat(end.headers().firstValue("Location")).hasValueSatisfying(l -> assertThat(l)
                .endsWith("/viewer/#/studies"));
        String cookie = end.headers().allValues("Set-Cookie").stream().filter(c -> c.startsWith("medjava_session="))
                .findFirst().orElseThrow();
        assertThat(cookie).contains("HttpOnly", "SameSite=Strict");
        HttpResponse<String> me = http.send(HttpRequest.newBuilder(store.uri("/auth/me"))
                .header("Cookie", cookie.substring(0, cookie.indexOf(';'))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(me.body()).contains("\"user\":\"alice\"", "\"role\":\"reader\"", "\"via\":\"session\"");

        // logging out ends the store's session and sends the browser to end the provider's (RP-initiated logout)
        String own = "http://127.0.0.1:" + store.port();
        HttpResponse<String> logout = http.send(HttpRequest.newBuilder(store.uri("/auth/logout"))
                .header("Cookie", cookie.substring(0, cookie.indexOf(';'))).header("Origin", own)
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(logout.statusCode()).as(logout.body()).isEqualTo(200);
        assertThat(logout.body()).contains(keycloak.issuer() + "/protocol/openid-connect/logout?client_id=medjava",
                "post_logout_redirect_uri=");
        HttpResponse<String> after = http.send(HttpRequest.newBuilder(store.uri("/auth/me"))
                .header("Cookie", cookie.substring(0, cookie.indexOf(';'))).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(after.statusCode()).isEqualTo(401);
    }

    @Test
    @Order(7)
    void aBrowserLoginWithoutARoleOrWithAForeignStateIsRefused() throws Exception {
        HttpResponse<String> carol = new Browser().login("carol", "carol-password", "/");
        assertThat(carol.statusCode()).as(carol.body()).isEqualTo(403);
        assertThat(carol.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("medjava_session=")
                && !c.startsWith("medjava_session=;"));

        HttpResponse<String> noLogin = http.send(HttpRequest.newBuilder(store.uri(
                "/auth/oidc/callback?code=abc&state=xyz")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(noLogin.statusCode()).isEqualTo(400);
        assertThat(noLogin.body()).contains("no login in progress");

        HttpResponse<String> offsite = http.send(HttpRequest.newBuilder(store.uri(
                "/auth/oidc/login?next=//evil.example.com/")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(offsite.statusCode()).isEqualTo(303);
    }

    /**
     * Access by project on a second store (same provider): alice (project cardiology) sees the cardiology study and
     * nothing of the other, on QIDO-RS, WADO-RS, thumbnails and the index, counts included; bob (admin) sees both;
     * a machine client without a project sees nothing; the doors that do not filter by study are admins' only.
     */
    @Test
    @Order(10)
    @Timeout(value = 6, unit = TimeUnit.MINUTES) // a second store started
    void withAccessByProjectACallerSeesOnlyTheStudiesOfTheirProjects() throws Exception {
        int dicomPort = Ports.free();
        try (PayaraStore projects = PayaraStore.named("sso-projects")
                .property("medjava.dicom.port", Integer.toString(dicomPort))
                .property("medjava.dicom.bind", "127.0.0.1")
                .property("medjava.dicom.aet", "MEDJAVA")
                .property("medjava.dicom.allowed-aets", "CARDIO=127.0.0.1, OTHER=127.0.0.1")
                .property("medjava.dicom.ae-projects", "CARDIO=cardiology")
                .property("medjava.access.receive-labels", "CARDIO=cardiology")
                .property("medjava.oidc.issuer", keycloak.issuer())
                .property("medjava.oidc.client-id", Keycloak.CLIENT)
                .property("medjava.oidc.client-secret", Keycloak.CLIENT_SECRET)
                .property("medjava.oidc.role-map", "pacs-admins=admin")
                .property("medjava.access.by-project", "true")
                .start()) {
            StoreClient admin = StoreClient.admin(projects);
            assertThat(admin.put("/images/it/p/ct.dcm", Samples.dicom("CT_small.dcm")).statusCode()).isEqualTo(201);
            assertThat(admin.put("/images/it/p/mr.dcm", Samples.dicom("MR_small.dcm")).statusCode()).isEqualTo(201);
            String ct = studyUid(admin, "CT");
            String mr = studyUid(admin, "MR");
            assertThat(admin.sendText(admin.request("/index/studies/" + ct + "/labels/cardiology")
                    .PUT(HttpRequest.BodyPublishers.noBody())).statusCode()).isEqualTo(201);

            String alice = keycloak.password("alice", "alice-password");
            HttpResponse<String> studies = get(projects, "/dicomweb/studies", alice);
            assertThat(studies.statusCode()).isEqualTo(200);
            assertThat(studies.body()).contains(ct).doesNotContain(mr);
            assertThat(get(projects, "/dicomweb/studies?StudyInstanceUID=" + mr, alice).body()).doesNotContain(mr);
            assertThat(get(projects, "/dicomweb/studies?PatientID=*", alice).body()).doesNotContain(mr);
            assertThat(get(projects, "/dicomweb/studies/" + mr + "/metadata", alice).statusCode()).isEqualTo(404);
            assertThat(get(projects, "/dicomweb/studies/" + ct + "/metadata", alice).statusCode()).isEqualTo(200);
            assertThat(get(projects, "/dicomweb/studies/" + mr + "/series", alice).body()).doesNotContain(mr);
            assertThat(get(projects, "/dicomweb/instances", alice).body()).doesNotContain(mr).contains(ct);
            assertThat(getStatus(projects, "/dicomweb/studies/" + mr + "/thumbnail", alice)).isEqualTo(404);
            assertThat(getStatus(projects, "/dicomweb/studies/" + ct + "/thumbnail", alice)).isEqualTo(200);
            assertThat(get(projects, "/index/studies", alice).body()).contains(ct).doesNotContain(mr);
            assertThat(get(projects, "/index/patients", alice).body()).as("counts of what alice may see")
                    .contains("\"NumberOfPatientRelatedStudies\":1");
            assertThat(get(projects, "/index/studies/" + ct + "/labels", alice).body()).isEqualTo("[\"cardiology\"]");
            assertThat(get(projects, "/index/studies/" + mr + "/labels", alice).statusCode()).isEqualTo(404);
            HttpResponse<String> hiddenFile = get(projects, "/images/it/p/mr.dcm", alice);
            assertThat(hiddenFile.statusCode()).as("a file of another project's study").isEqualTo(404);
            assertThat(hiddenFile.body()).as("as if it were not there")
                    .isEqualTo(get(projects, "/images/it/p/none.dcm", alice).body().replace("none.dcm", "mr.dcm"));
            assertThat(getStatus(projects, "/images/it/p/ct.dcm", alice)).isEqualTo(200);
            assertThat(getStatus(projects, "/images/it/p/ct.dcm?render=png", alice)).isEqualTo(200);
            assertThat(getStatus(projects, "/images/it/p/mr.dcm?render=png", alice)).isEqualTo(404);
            assertThat(get(projects, "/images/it/p/", alice).statusCode()).as("listings: administrators")
                    .isEqualTo(403);
            HttpResponse<String> changes = get(projects, "/changes", alice);
            assertThat(changes.statusCode()).isEqualTo(200);
            assertThat(changes.body()).as("the change feed of her studies").contains(ct).doesNotContain(mr);

            String bob = keycloak.password("bob", "bob-password");
            assertThat(get(projects, "/dicomweb/studies", bob).body()).contains(ct, mr);
            assertThat(get(projects, "/images/it/p/mr.dcm", bob).statusCode()).isEqualTo(200);
            assertThat(get(projects, "/changes", bob).body()).contains(ct, mr);

            // writes by name touch only what the caller may see: a local uploader has no project, so sees nothing
            StoreClient ulla = admin.account("ulla", "uploader");
            assertThat(ulla.delete("/dicomweb/studies/" + mr).statusCode()).as("a delete by UID").isEqualTo(404);
            assertThat(ulla.postJson("/jobs", "{\"kind\": \"deidentify\", \"params\": {\"StudyInstanceUID\": \""
                    + mr + "\"}}").statusCode()).as("a job on it").isEqualTo(404);
            assertThat(ulla.postJson("/pacs/remotes/NONE/echo", "{}").statusCode()).as("the remote PACS")
                    .isEqualTo(403);
            assertThat(ulla.put("/images/it/p/mr.dcm", Samples.dicom("MR_small.dcm")).statusCode())
                    .as("a PUT over its file").isEqualTo(404);
            assertThat(ulla.delete("/images/it/p/mr.dcm").statusCode()).isEqualTo(404);
            assertThat(ulla.put("/images/it/p/ulla.gif", Samples.bytes(Samples.gif("ct-small.gif"))).statusCode())
                    .as("a new name").isEqualTo(201);
            assertThat(get(projects, "/dicomweb/studies", bob).body()).as("nothing of it changed").contains(mr);
            assertThat(getStatus(projects, "/images/it/p/mr.dcm", bob)).isEqualTo(200);

            String router = keycloak.clientCredentials("router", "router-client-secret");
            HttpResponse<String> none = get(projects, "/dicomweb/studies", router);
            assertThat(none.statusCode()).isIn(200, 204);
            assertThat(none.body()).doesNotContain(ct).doesNotContain(mr);
            assertThat(get(projects, "/index/patients", router).body()).isEqualTo("[]");

            // DIMSE: the calling AE title's projects (medjava.dicom.ae-projects); an AE not listed finds nothing
            assertThat(Dcmtk.matches(findscu(dicomPort, "CARDIO"))).isEqualTo(1);
            assertThat(Dcmtk.matches(findscu(dicomPort, "OTHER"))).isZero();
            Path into = Files.createTempDirectory("sso-get");
            Command.run(Command.of("getscu", "-v", "-S", "+B", "-aet", "CARDIO", "-aec", "MEDJAVA", "127.0.0.1",
                    dicomPort, "-od", into, "-k", "QueryRetrieveLevel=STUDY", "-k", "StudyInstanceUID=" + mr));
            try (var files = Files.list(into)) {
                assertThat(files.toList()).as("nothing of a study of another project").isEmpty();
            }
            Command.run(Command.of("getscu", "-v", "-S", "+B", "-aet", "CARDIO", "-aec", "MEDJAVA", "127.0.0.1",
                    dicomPort, "-od", into, "-k", "QueryRetrieveLevel=STUDY", "-k", "StudyInstanceUID=" + ct));
            try (var files = Files.list(into)) {
                assertThat(files.toList()).hasSize(1);
            }

            // labels on receive: what CARDIO sends lands in cardiology, and alice sees it
            Command.run(Command.of("storescu", "-aet", "CARDIO", "-aec", "MEDJAVA", "127.0.0.1", dicomPort,
                    Samples.dicom("examples_rgb_color.dcm"))).assertOk();
            String all = admin.getJson("/index/studies").body();
            Matcher uids = Pattern.compile("\"StudyInstanceUID\"\\s*:\\s*\"([0-9.]+)\"").matcher(all);
            String received = null;
            while (uids.find()) {
                if (!uids.group(1).equals(ct) && !uids.group(1).equals(mr)) {
                    received = uids.group(1);
                }
            }
            assertThat(received).as(all).isNotNull();
            assertThat(get(projects, "/dicomweb/studies", alice).body()).contains(received, ct).doesNotContain(mr);
        }
    }

    static Command.Result findscu(int port, String callingAe) throws Exception {
        return Command.run(Command.of("findscu", "-v", "-S", "-aet", callingAe, "-aec", "MEDJAVA", "127.0.0.1",
                port, "-k", "QueryRetrieveLevel=STUDY", "-k", "StudyInstanceUID"));
    }

    static HttpResponse<String> get(PayaraStore on, String path, String token) throws Exception {
        return http.send(HttpRequest.newBuilder(on.uri(path)).header("Authorization", "Bearer " + token)
                .header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
    }

    static int getStatus(PayaraStore on, String path, String token) throws Exception {
        return http.send(HttpRequest.newBuilder(on.uri(path)).header("Authorization", "Bearer " + token).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    /** The Study Instance UID of the one study of a modality, as the index lists it. */
    static String studyUid(StoreClient admin, String modality) throws Exception {
        String body = admin.getJson("/index/studies?ModalitiesInStudy=" + modality).body();
        Matcher m = Pattern.compile("\"StudyInstanceUID\"\\s*:\\s*\"([0-9.]+)\"").matcher(body);
        assertThat(m.find()).as(body).isTrue();
        return m.group(1);
    }

    @Test
    @Order(20)
    void aProviderThatIsDownAcceptsNoNewKeyAndTheStoreAnswers401() throws Exception {
        String alice = keycloak.password("alice", "alice-password");
        keycloak.close();
        String[] parts = alice.split("\\.");
        String header = Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"not-published\"}".getBytes(StandardCharsets.UTF_8));

        HttpResponse<String> r = get("/dicomweb/studies", header + "." + parts[1] + "." + parts[2]);

        assertThat(r.statusCode()).as(r.body()).isEqualTo(401);
        HttpResponse<String> local = StoreClient.admin(store).getJson("/dicomweb/studies");
        assertThat(local.statusCode()).as("local accounts keep working").isEqualTo(200);
        keycloak = null;
    }

    /**
     * A browser as far as a login needs one: the store's login cookie kept for its callback, redirects followed by
     * hand so that each hop can be seen, and the provider's own login form filled in ({@link Keycloak#logIn}).
     */
    static final class Browser {
        /** Follows the login from the store to the provider's form and back; the store's last answer. */
        HttpResponse<String> login(String user, String password, String next) throws Exception {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(store.uri("/auth/oidc/login?next="
                    + java.net.URLEncoder.encode(next, StandardCharsets.UTF_8))).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(303);
            URI authorize = URI.create(r.headers().firstValue("Location").orElseThrow());
            assertThat(authorize.toString()).startsWith(keycloak.issuer()).contains("code_challenge_method=S256",
                    "code_challenge=", "state=", "nonce=");
            String loginCookie = r.headers().allValues("Set-Cookie").stream()
                    .filter(c -> c.startsWith("medjava_oidc=")).map(c -> c.split(";", 2)[0]).findFirst()
                    .orElseThrow();
            URI callback = keycloak.logIn(authorize, user, password);
            assertThat(callback.getPath()).isEqualTo("/auth/oidc/callback");
            return http.send(HttpRequest.newBuilder(callback).header("Cookie", loginCookie).build(),
                    HttpResponse.BodyHandlers.ofString());
        }
    }
}
