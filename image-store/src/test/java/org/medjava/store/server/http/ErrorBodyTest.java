package org.medjava.store.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The store's error body as the servlet layer writes it: valid JSON, every status with a plain reason. */
class ErrorBodyTest {

    @Test
    void theServletLayersBodyIsTheSameShapeAndEscaped() {
        String json = ErrorBody.json(404, "nothing at /a\"b\\c<script>\n");
        try (javax.json.JsonReader reader = javax.json.Json.createReader(new java.io.StringReader(json))) {
            javax.json.JsonObject o = reader.readObject();
            assertThat(o.getInt("status")).isEqualTo(404);
            assertThat(o.getString("error")).isEqualTo("Not Found");
            assertThat(o.getString("message")).isEqualTo("nothing at /a\"b\\c<script>\n");
        }
        assertThat(json).doesNotContain("<script>");
    }

    @Test
    void everyStatusTheHttpLayerAnswersHasAReasonSayingWhatToDo() {
        for (int status : new int[] {400, 401, 403, 404, 405, 406, 408, 411, 413, 414, 415, 416, 422, 429, 431, 500,
                501, 503, 505}) {
            assertThat(ErrorBody.reason(status)).as("%d", status).isNotBlank();
            assertThat(ErrorBody.standardMessage(status, "PATCH", "/images/a.gif")).as("%d", status).isNotBlank()
                    .doesNotContainIgnoringCase("payara").doesNotContain("Exception");
        }
        assertThat(ErrorBody.standardMessage(405, "PATCH", "/images/a.gif")).contains("PATCH", "/images/a.gif");
    }
}
