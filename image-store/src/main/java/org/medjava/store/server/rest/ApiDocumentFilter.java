package org.medjava.store.server.rest;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.Paths;

/**
 * Touches up the OpenAPI document Payara builds (registered as {@code mp.openapi.filter}):
 * <ul>
 * <li>JAX-RS path templates with a regular expression ({@code /images/{path: .*}},
 * {@code /filters/{id}/{action: suspend|resume}}) become OpenAPI templates ({@code /images/{path}}), which
 * clients and the API browser can fill in;</li>
 * <li>{@code POST /auth/login} takes JSON or a form ({@code requestBodies/Login});</li>
 * <li>each tag is listed once, with its description from {@code META-INF/openapi.yaml};</li>
 * <li>the server is the store's public URL's path ({@code /}, or {@code /prefix/} behind a proxy), relative, so the
 * API browser's "Try it out" calls the origin it was loaded from (Payara would name the host it guessed at start,
 * {@code http://localhost:port/}, another origin for a browser on 127.0.0.1 or behind a proxy).</li>
 * <li>Payara writes the defaults of {@code @Schema} and {@code @Parameter} attributes as if they were set
 * ({@code maxProperties: 0}, {@code minItems: 2147483647}, {@code required: false} beside a {@code $ref}, ...):
 * they are removed, since several say the opposite of the truth (no properties allowed);</li>
 * <li>an {@code example} given as JSON text in an annotation becomes the JSON value it spells.</li>
 * </ul>
 */
public class ApiDocumentFilter implements OASFilter {

    private static final Pattern REGEX_TEMPLATE = Pattern.compile("\\{\\s*([A-Za-z0-9_]+)\\s*:[^}]*}");

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        Paths paths = openAPI.getPaths();
        if (paths != null && paths.getPathItems() != null) {
            Map<String, PathItem> renamed = new LinkedHashMap<>();
            paths.getPathItems().forEach((path, item) -> renamed.put(plainTemplate(path), item));
            paths.setPathItems(renamed);
        }
        PathItem login = paths == null ? null : paths.getPathItem("/auth/login");
        if (login != null && login.getPOST() != null) {
            // two JAX-RS methods (a JSON and a form body) make this one operation; Payara keeps the form's body
            // as "*/*" whatever the annotations say: it is META-INF/openapi.yaml's requestBodies/Login
            login.getPOST().setRequestBody(OASFactory.createRequestBody().ref("Login"));
        }
        if (openAPI.getTags() != null) { // a resource's @Tag repeats the one META-INF/openapi.yaml describes
            Map<String, org.eclipse.microprofile.openapi.models.tags.Tag> byName = new LinkedHashMap<>();
            openAPI.getTags().forEach(t -> byName.merge(t.getName(), t, (first, again) -> first));
            openAPI.setTags(new java.util.ArrayList<>(byName.values()));
        }
        openAPI.setServers(List.of(OASFactory.createServer().url(serverPath(publicUrl()))
                .description("this store (relative to where the document was loaded)")));
    }

    @Override
    public Schema filterSchema(Schema schema) {
        if (Integer.valueOf(0).equals(schema.getMaxProperties())) {
            schema.setMaxProperties(null);
        }
        if (Integer.valueOf(0).equals(schema.getMinProperties())) {
            schema.setMinProperties(null);
        }
        if (Integer.valueOf(0).equals(schema.getMinLength())) {
            schema.setMinLength(null);
        }
        if (Integer.valueOf(Integer.MAX_VALUE).equals(schema.getMaxLength())) {
            schema.setMaxLength(null);
        }
        if (schema.getMaxItems() != null && schema.getMaxItems() < 0) {
            schema.setMaxItems(null);
        }
        if (Integer.valueOf(Integer.MAX_VALUE).equals(schema.getMinItems())) {
            schema.setMinItems(null);
        }
        if (schema.getMultipleOf() != null && schema.getMultipleOf().signum() == 0) {
            schema.setMultipleOf(null);
        }
        schema.setExclusiveMaximum(trueOrNull(schema.getExclusiveMaximum()));
        schema.setExclusiveMinimum(trueOrNull(schema.getExclusiveMinimum()));
        schema.setUniqueItems(trueOrNull(schema.getUniqueItems()));
        schema.setNullable(trueOrNull(schema.getNullable()));
        schema.setReadOnly(trueOrNull(schema.getReadOnly()));
        schema.setWriteOnly(trueOrNull(schema.getWriteOnly()));
        schema.setDeprecated(trueOrNull(schema.getDeprecated()));
        schema.setExample(jsonExample(schema.getExample()));
        return schema;
    }

    @Override
    public Operation filterOperation(Operation operation) {
        operation.setDeprecated(trueOrNull(operation.getDeprecated()));
        return operation;
    }

    @Override
    public Parameter filterParameter(Parameter parameter) {
        parameter.setDeprecated(trueOrNull(parameter.getDeprecated()));
        parameter.setAllowEmptyValue(trueOrNull(parameter.getAllowEmptyValue()));
        parameter.setAllowReserved(trueOrNull(parameter.getAllowReserved()));
        if (parameter.getRef() != null) { // the referenced parameter says all
            parameter.setRequired(null);
        }
        return parameter;
    }

    @Override
    public Header filterHeader(Header header) {
        header.setDeprecated(trueOrNull(header.getDeprecated()));
        header.setAllowEmptyValue(trueOrNull(header.getAllowEmptyValue()));
        header.setRequired(trueOrNull(header.getRequired()));
        return header;
    }

    private static Boolean trueOrNull(Boolean b) {
        return Boolean.TRUE.equals(b) ? Boolean.TRUE : null;
    }

    /** JSON text (an object or an array) as the value it spells; anything else as it was. */
    static Object jsonExample(Object example) {
        if (!(example instanceof String text) || !(text.startsWith("{") || text.startsWith("["))) {
            return example;
        }
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            return plain(reader.readValue());
        } catch (JsonException e) {
            return example;
        }
    }

    private static Object plain(JsonValue value) {
        return switch (value.getValueType()) {
            case OBJECT -> {
                Map<String, Object> map = new LinkedHashMap<>();
                value.asJsonObject().forEach((k, v) -> map.put(k, plain(v)));
                yield map;
            }
            case ARRAY -> value.asJsonArray().stream().map(ApiDocumentFilter::plain).toList();
            case STRING -> ((JsonString) value).getString();
            case NUMBER -> ((JsonNumber) value).isIntegral() ? (Object) ((JsonNumber) value).longValue()
                    : ((JsonNumber) value).bigDecimalValue();
            case TRUE -> Boolean.TRUE;
            case FALSE -> Boolean.FALSE;
            case NULL -> null;
        };
    }

    /** {@code /images/{path: .*}} to {@code /images/{path}}. */
    static String plainTemplate(String path) {
        Matcher m = REGEX_TEMPLATE.matcher(path);
        return m.replaceAll(r -> Matcher.quoteReplacement("{" + r.group(1) + "}"));
    }

    /** The path of the public URL with a trailing slash; {@code /} without one. */
    static String serverPath(Optional<String> publicUrl) {
        String path = publicUrl.map(u -> URI.create(u.trim()).getPath()).orElse("");
        if (path == null || path.isEmpty()) {
            return "/";
        }
        return path.endsWith("/") ? path : path + "/";
    }

    private static Optional<String> publicUrl() {
        try {
            return ConfigProvider.getConfig().getOptionalValue("medjava.public-url", String.class)
                    .filter(s -> !s.isBlank());
        } catch (IllegalArgumentException | IllegalStateException e) {
            return Optional.empty(); // a malformed URL stops the start (LinkSettings); the document stays usable
        }
    }
}
