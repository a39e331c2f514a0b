package org.medjava.store.server.filter;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Request;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.medjava.store.server.rest.DicomWebResource;
import org.medjava.store.server.rest.FiltersResource;
import org.medjava.store.server.rest.ImagesResource;

/** The endpoint label of the request metrics: the resources' path templates, regular expressions left out. */
class EndpointTemplateTest {

    @Test
    void aPathWithARegularExpressionBecomesItsPlainTemplate() throws Exception {
        assertThat(EndpointTemplate.template(ImagesResource.class, ImagesResource.class.getMethod("put",
                String.class, InputStream.class, long.class, String.class, String.class, String.class)))
                .isEqualTo("/images/{path}");
        assertThat(EndpointTemplate.template(FiltersResource.class, FiltersResource.class.getMethod(
                "suspendOrResume", String.class, String.class))).isEqualTo("/filters/{id}/{action}");
    }

    @Test
    void classAndMethodPathsAreJoinedWithTheirParametersNamedNotFilledIn() throws Exception {
        assertThat(EndpointTemplate.template(DicomWebResource.class, DicomWebResource.class.getMethod("rendered",
                String.class, String.class, String.class)))
                .isEqualTo("/dicomweb/studies/{study}/series/{series}/instances/{instance}/rendered");
    }

    @Test
    void aMethodWithoutItsOwnPathIsTheClassPath() throws Exception {
        assertThat(EndpointTemplate.template(ImagesResource.class, ImagesResource.class.getMethod("root",
                Request.class, HttpHeaders.class))).isEqualTo("/images");
    }

    /** A container's subclass of a resource (a CDI proxy) has the resource's template. */
    static class ProxyOfImages extends ImagesResource {
    }

    @Test
    void aSubclassOfAResourceHasTheResourcesTemplate() throws Exception {
        assertThat(EndpointTemplate.template(ProxyOfImages.class, ImagesResource.class.getMethod("root",
                Request.class, HttpHeaders.class))).isEqualTo("/images");
    }
}
