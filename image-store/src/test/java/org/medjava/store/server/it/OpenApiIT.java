package org.medjava.store.server.it;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.io.StringReader;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.json.Json;
import javax.json.JsonObject;
import javax.json.JsonString;
import javax.json.JsonValue;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.medjava.store.testkit.store.SharedStore;
import org.medjava.store.testkit.store.StoreClient;

/**
 * The API browser's document and page: {@code /openapi} as JSON documents every operation the store's JAX-RS
 * resources serve (found by reflection), each with a summary, its success answer and its refusals with schemas;
 * every reference resolves; the schemas of JSON bodies name exactly the JSON properties of the Java records they
 * describe; examples are JSON values. {@code /api/} is served open, with a CSP, and loads only from the store.
 */
@ExtendWith(SharedStore.class)
class OpenApiIT {

    /** The JAX-RS resources (the ArchUnit ModuleBoundariesTest keeps every one in org.medjava.store.server.rest). */
    static final List<String> RESOURCES = List.of("AdminResource", "AuditResource", "ChangesResource", "DerivedResource",
            "DicomWebResource", "FiltersResource", "ImagesResource", "IndexResource", "JobsResource", "PacsResource",
            "RetentionResource", "RootResource", "RoutesResource", "SessionResource", "ShareLinkResource",
            "SharesResource",
            "SingleSignOnResource", "TrashResource", "UploadsResource",
            "WebAppResource");

    /** Schemas of JSON bodies and the Java records behind them. */
    static final Map<String, String> RECORD_SCHEMAS = Map.ofEntries(
            Map.entry("PatientSummary", "org.medjava.store.core.index.PatientSummary"),
            Map.entry("AuditRecord", "org.medjava.store.core.audit.AuditRecord"),
            Map.entry("StudySummary", "org.medjava.store.core.index.StudySummary"),
            Map.entry("SeriesSummary", "org.medjava.store.core.index.SeriesSummary"),
            Map.entry("InstanceSummary", "org.medjava.store.core.index.InstanceSummary"),
            Map.entry("RebuildReport", "org.medjava.store.core.index.RebuildReport"),
            Map.entry("JobStatus", "org.medjava.store.core.jobs.JobStatus"),
            Map.entry("RetrieveResult", "org.medjava.store.net.scu.RemotePacs$RetrieveResult"),
            Map.entry("SendResult", "org.medjava.store.net.scu.RemotePacs$SendResult"),
            Map.entry("FailedInstance", "org.medjava.store.net.scu.RemotePacs$FailedInstance"),
            Map.entry("Submission", "org.medjava.store.server.rest.JobsResource$Submission"),
            Map.entry("Derivation", "org.medjava.store.server.rest.DerivedResource$Derivation"),
            Map.entry("Login", "org.medjava.store.server.rest.SessionResource$Login"),
            Map.entry("NewShare", "org.medjava.store.server.rest.SharesResource$NewShare"),
            Map.entry("Share", "org.medjava.store.server.rest.SharesResource$ShareView"),
            Map.entry("Account", "org.medjava.store.server.rest.AdminResource$Account"),
            Map.entry("FilterManifest", "org.medjava.store.server.rest.FilterManifest"),
            Map.entry("Plugin", "org.medjava.store.server.rest.FilterManifest$Plugin"),
            Map.entry("Filter", "org.medjava.store.server.rest.FilterManifest$Filter"),
            Map.entry("FilterParam", "org.medjava.store.server.rest.FilterManifest$Param"),
            Map.entry("Listing", "org.medjava.store.server.rest.DirectoryView$Listing"),
            Map.entry("ListingEntry", "org.medjava.store.server.rest.DirectoryView$Entry"),
            Map.entry("Deletion", "org.medjava.store.server.rest.TrashResource$Deletion"),
            Map.entry("TrashOutcome", "org.medjava.store.core.trash.Trash$Outcome"),
            Map.entry("Change", "org.medjava.store.core.index.Change"),
            Map.entry("ChangeFeed", "org.medjava.store.server.rest.ChangesResource$ChangeFeed"),
            Map.entry("RetentionRule", "org.medjava.store.core.retention.RetentionRule"),
            Map.entry("RetentionLastRun", "org.medjava.store.core.retention.RetentionRule$LastRun"),
            Map.entry("AgedStudy", "org.medjava.store.core.index.AgedStudy"),
            Map.entry("RulePreview", "org.medjava.store.server.rest.RetentionResource$RulePreview"),
            Map.entry("RetentionRun", "org.medjava.store.core.retention.Retention$Run"),
            Map.entry("RuleDraft", "org.medjava.store.server.rest.RetentionResource$RuleDraft"),
            Map.entry("RouteDestination", "org.medjava.store.core.route.RouteRule$Destination"),
            Map.entry("RouteDraft", "org.medjava.store.server.rest.RoutesResource$RouteDraft"),
            Map.entry("RouteRule", "org.medjava.store.core.route.RouteRule"),
            Map.entry("RouteTask", "org.medjava.store.core.index.RouteTask"),
            Map.entry("RouteQueue", "org.medjava.store.server.rest.RoutesResource$Queue"),
            Map.entry("RouteQueued", "org.medjava.store.server.rest.RoutesResource$Queued"));

    static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");
    static final Pattern REGEX_TEMPLATE = Pattern.compile("\\{\\s*([A-Za-z0-9_]+)\\s*:[^}]*}");

    static StoreClient anonymous;
    static JsonObject document;

    @BeforeAll
    static void fetchTheDocument() throws Exception {
        anonymous = new StoreClient(SharedStore.store(), null);
        HttpResponse<String> r = anonymous.sendText(anonymous.request("/openapi")
                .header("Accept", "application/json"));
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type").orElse("")).startsWith("application/json");
        document = Json.createReader(new StringReader(r.body())).readObject();
    }

    @Test
    void everyOperationTheResourcesServeIsDocumented() throws Exception {
        Set<String> served = new TreeSet<>();
        for (String name : RESOURCES) {
            Class<?> resource = Class.forName("org.medjava.store.server.rest." + name, false,
                    OpenApiIT.class.getClassLoader()); // not initialised: its constants need a JAX-RS runtime
            String base = resource.getAnnotation(Path.class).value();
            for (Method m : resource.getDeclaredMethods()) {
                String verb = m.isAnnotationPresent(GET.class) ? "get" : m.isAnnotationPresent(PUT.class) ? "put"
                        : m.isAnnotationPresent(POST.class) ? "post" : m.isAnnotationPresent(DELETE.class)
                        ? "delete" : m.isAnnotationPresent(jakarta.ws.rs.PATCH.class) ? "patch"
                        : m.isAnnotationPresent(jakarta.ws.rs.HEAD.class) ? "head"
                        : m.isAnnotationPresent(jakarta.ws.rs.OPTIONS.class) ? "options" : null;
                Operation operation = m.getAnnotation(Operation.class);
                if (verb == null || (operation != null && operation.hidden())) {
                    continue; // HEAD is answered by GET; hidden: the redirects to an application's directory
                }
                Path sub = m.getAnnotation(Path.class);
                served.add(verb + " " + template(base, sub == null ? "" : sub.value()));
            }
        }
        Set<String> documented = new TreeSet<>();
        document.getJsonObject("paths").forEach((path, item) -> item.asJsonObject().keySet().stream()
                .filter(METHODS::contains).forEach(verb -> documented.add(verb + " " + path)));
        assertThat(served).hasSizeGreaterThan(40);
        assertThat(documented).containsAll(served);
        assertThat(documented).as("nothing documented that the resources do not serve").isSubsetOf(served);
    }

    @Test
    void everyOperationHasASummaryItsSuccessAndItsRefusalsWithSchemas() {
        List<String> problems = new ArrayList<>();
        eachOperation((where, op) -> {
            if (!op.containsKey("summary") || op.getString("summary").isBlank()) {
                problems.add(where + ": no summary");
            }
            if (!op.containsKey("tags") || op.getJsonArray("tags").isEmpty()) {
                problems.add(where + ": no tag");
            }
            JsonObject responses = op.getJsonObject("responses");
            if (responses == null || responses.containsKey("default")
                    || responses.keySet().stream().noneMatch(c -> c.startsWith("2") || c.equals("303"))) {
                problems.add(where + ": no documented success " + (responses == null ? "" : responses.keySet()));
                return;
            }
            if (op.containsKey("security") && !responses.containsKey("401")) {
                problems.add(where + ": needs a login but documents no 401");
            }
            responses.forEach((code, response) -> {
                JsonObject resolved = resolve(response.asJsonObject());
                if (!resolved.containsKey("description")) {
                    problems.add(where + " " + code + ": no description");
                }
                boolean bodiless = where.startsWith("HEAD ") || code.equals("204") || code.equals("304") || code.equals("416") || code.startsWith("3")
                        || code.equals("201") || (code.equals("202") && !resolved.containsKey("content"));
                if (!bodiless && !hasSchemas(resolved)) {
                    problems.add(where + " " + code + ": no content with a schema");
                }
                if (code.startsWith("4") && !code.equals("416") && resolved.containsKey("content")
                        && !resolved.getJsonObject("content").containsKey("application/json")
                        && !resolved.getJsonObject("content").containsKey("application/dicom+json") // STOW-RS
                        && !where.contains("/viewer/") && !where.contains("/ohif/") && !where.contains("/api/")) {
                    problems.add(where + " " + code + ": a refusal is the store's JSON refusal");
                }
            });
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void everyReferenceResolvesAndTheNamedSchemasExist() {
        List<String> refs = new ArrayList<>();
        collectRefs(document, refs);
        assertThat(refs).hasSizeGreaterThan(100);
        for (String ref : refs) {
            assertThat(ref).startsWith("#/components/");
            String[] parts = ref.substring(2).split("/");
            assertThat(document.getJsonObject(parts[0]).getJsonObject(parts[1]).containsKey(parts[2]))
                    .as(ref).isTrue();
        }
        JsonObject schemas = document.getJsonObject("components").getJsonObject("schemas");
        assertThat(schemas.keySet()).containsAll(RECORD_SCHEMAS.keySet()).contains("Refusal", "DerivedObject",
                "Session", "DicomJsonArray", "DicomJsonDataset", "Accounts", "UidSelection");
        assertThat(document.getJsonObject("components").getJsonObject("securitySchemes").keySet())
                .containsExactlyInAnyOrder("basic", "bearer", "session");
        assertThat(document.getJsonArray("tags").getValuesAs(JsonObject.class).stream()
                .map(t -> t.getString("name")).toList()).doesNotHaveDuplicates()
                .contains("images", "index", "DICOMweb", "jobs", "filters", "admin", "sessions", "PACS");
    }

    @Test
    void recordSchemasNameExactlyTheRecordsJsonProperties() throws Exception {
        JsonObject schemas = document.getJsonObject("components").getJsonObject("schemas");
        for (Map.Entry<String, String> e : RECORD_SCHEMAS.entrySet()) {
            Class<?> record = Class.forName(e.getValue(), false, OpenApiIT.class.getClassLoader());
            Set<String> json = new TreeSet<>();
            for (RecordComponent c : record.getRecordComponents()) {
                JsonbProperty named = record.getDeclaredField(c.getName()).getAnnotation(JsonbProperty.class);
                json.add(named == null ? c.getName() : named.value());
            }
            assertThat(new TreeSet<>(schemas.getJsonObject(e.getKey()).getJsonObject("properties").keySet()))
                    .as(e.getKey() + " against " + record.getName()).isEqualTo(json);
        }
    }

    @Test
    void examplesAreJsonValuesThatFitTheirSchemas() {
        List<String> problems = new ArrayList<>();
        JsonObject schemas = document.getJsonObject("components").getJsonObject("schemas");
        int[] examples = {0};
        schemas.forEach((name, schema) -> {
            JsonObject s = schema.asJsonObject();
            if (!s.containsKey("example")) {
                return;
            }
            examples[0]++;
            JsonValue example = s.get("example");
            if (example.getValueType() == JsonValue.ValueType.STRING
                    && ((JsonString) example).getString().trim().matches("^[\\[{].*")) {
                problems.add(name + ": its example is JSON text, not a JSON value");
            } else if (example.getValueType() == JsonValue.ValueType.OBJECT && s.containsKey("properties")
                    && !s.getJsonObject("properties").keySet().containsAll(example.asJsonObject().keySet())) {
                problems.add(name + ": its example has properties its schema lacks: " + example);
            }
        });
        JsonObject responses = document.getJsonObject("components").getJsonObject("responses");
        responses.forEach((name, response) -> {
            JsonObject content = response.asJsonObject().getJsonObject("content");
            if (content != null && content.getJsonObject("application/json").get("example").getValueType()
                    != JsonValue.ValueType.OBJECT) {
                problems.add("response " + name + ": its example is not a JSON object");
            }
        });
        assertThat(examples[0]).as("schemas with examples").isGreaterThan(15);
        assertThat(problems).isEmpty();
    }

    @Test
    void theServerIsTheStoreItselfAndPathsArePlainTemplates() {
        assertThat(document.getJsonArray("servers").getJsonObject(0).getString("url")).isEqualTo("/");
        assertThat(document.getJsonObject("paths").keySet()).allSatisfy(p -> assertThat(p).doesNotContain(":"))
                .contains("/images/{path}", "/filters/{id}/{action}", "/index/studies", "/dicomweb/studies",
                        "/api/{file}");
    }

    @Test
    void theApiBrowserIsServedOpenWithACspAndLoadsOnlyFromTheStore() throws Exception {
        HttpResponse<String> page = anonymous.sendText(anonymous.request("/api/"));
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.headers().firstValue("Content-Type").orElse("")).startsWith("text/html");
        String csp = page.headers().firstValue("Content-Security-Policy").orElse("");
        assertThat(csp).contains("default-src 'self'", "script-src 'self'", "connect-src 'self'")
                .doesNotContain("http:", "https:", "unsafe-eval");
        List<String> references = new ArrayList<>();
        Matcher m = Pattern.compile("(?:src|href)=\"([^\"]+)\"").matcher(page.body());
        while (m.find()) {
            references.add(m.group(1));
        }
        assertThat(references).contains("swagger-ui-bundle.js", "swagger-ui.css", "api.js")
                .allSatisfy(ref -> assertThat(ref).doesNotContain("//").doesNotStartWith("http"));
        for (String ref : references) {
            String path = ref.startsWith("../") ? "/" + ref.substring(3) : "/api/" + ref;
            assertThat(anonymous.sendText(anonymous.request(path)).statusCode()).as(path).isEqualTo(200);
        }
        String script = anonymous.sendText(anonymous.request("/api/api.js")).body();
        assertThat(script).contains("validatorUrl: null", "../openapi?format=json");
        assertThat(anonymous.sendText(anonymous.request("/api")).statusCode()).isEqualTo(301);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** {@code images} + {@code {path: .*}} as OpenAPI writes it: {@code /images/{path}}. */
    static String template(String base, String sub) {
        String joined = ("/" + base + "/" + sub).replaceAll("/+", "/");
        if (joined.length() > 1 && joined.endsWith("/")) {
            joined = joined.substring(0, joined.length() - 1);
        }
        return REGEX_TEMPLATE.matcher(joined).replaceAll(r -> Matcher.quoteReplacement("{" + r.group(1) + "}"));
    }

    interface OperationCheck {
        void check(String where, JsonObject operation);
    }

    static void eachOperation(OperationCheck check) {
        document.getJsonObject("paths").forEach((path, item) -> item.asJsonObject().forEach((verb, op) -> {
            if (METHODS.contains(verb)) {
                check.check(verb.toUpperCase() + " " + path, op.asJsonObject());
            }
        }));
    }

    static JsonObject resolve(JsonObject maybeRef) {
        if (!maybeRef.containsKey("$ref")) {
            return maybeRef;
        }
        String[] parts = maybeRef.getString("$ref").substring(2).split("/");
        return document.getJsonObject(parts[0]).getJsonObject(parts[1]).getJsonObject(parts[2]);
    }

    static boolean hasSchemas(JsonObject response) {
        JsonObject content = response.getJsonObject("content");
        return content != null && !content.isEmpty()
                && content.values().stream().allMatch(c -> c.asJsonObject().containsKey("schema"));
    }

    static void collectRefs(JsonValue value, List<String> refs) {
        if (value.getValueType() == JsonValue.ValueType.OBJECT) {
            value.asJsonObject().forEach((k, v) -> {
                if (k.equals("$ref")) {
                    refs.add(((JsonString) v).getString());
                } else {
                    collectRefs(v, refs);
                }
            });
        } else if (value.getValueType() == JsonValue.ValueType.ARRAY) {
            value.asJsonArray().forEach(v -> collectRefs(v, refs));
        }
    }
}
