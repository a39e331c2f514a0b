package org.medjava.store.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.medjava.store.testkit.Samples;
import org.testcontainers.containers.ComposeContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * docker/compose.yaml as it is shipped: the store image built from docker/Dockerfile, three nodes, PostgreSQL 15,
 * S3Proxy, nginx and Orthanc, started by Testcontainers (the {@code docker compose} of the machine). Skipped where
 * there is no Docker engine ({@code disabledWithoutDocker}); it takes minutes (the image build runs Maven).
 */
@Testcontainers(disabledWithoutDocker = true)
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class DockerComposeIT {

    static final String ADMIN_PASSWORD = "compose-it-admin";
    static final int LB_PORT = 8080;

    @Container
    static final ComposeContainer CLUSTER = new ComposeContainer(composeFile())
            .withBuild(true)
            .withEnv("MEDJAVA_ADMIN_PASSWORD", ADMIN_PASSWORD)
            // free host ports: the file publishes 8080, 11112 and 8042 by default
            .withEnv("MEDJAVA_PORT", "0")
            .withEnv("MEDJAVA_DICOM_PORT", "0")
            .withEnv("MEDJAVA_ORTHANC_PORT", "0")
            .withRemoveVolumes(true)
            .withExposedService("lb", LB_PORT, Wait.forHttp("/health/ready").forStatusCode(200)
                    .withStartupTimeout(Duration.ofMinutes(20)));

    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @Test
    void anImagePutThroughTheLoadBalancerIsServedBack() throws Exception {
        URI lb = URI.create("http://" + CLUSTER.getServiceHost("lb", LB_PORT) + ":"
                + CLUSTER.getServicePort("lb", LB_PORT));
        String auth = "Basic " + Base64.getEncoder().encodeToString(("admin:" + ADMIN_PASSWORD)
                .getBytes(StandardCharsets.UTF_8));
        byte[] dicom = Samples.bytes(Samples.dicom("CT_small.dcm"));

        HttpResponse<String> put = http.send(HttpRequest.newBuilder(lb.resolve("/images/compose-it/ct.dcm"))
                .header("Authorization", auth).PUT(HttpRequest.BodyPublishers.ofByteArray(dicom))
                .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
        for (int i = 0; i < 6; i++) { // round robin: every node serves it at least once
            HttpResponse<byte[]> got = http.send(HttpRequest.newBuilder(lb.resolve("/images/compose-it/ct.dcm"))
                    .header("Authorization", auth).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(got.statusCode()).isEqualTo(200);
            assertThat(got.body()).isEqualTo(dicom);
        }
    }

    static java.io.File composeFile() {
        String root = System.getProperty("medjava.root", Path.of("").toAbsolutePath().getParent().toString());
        return Path.of(root, "docker", "compose.yaml").toFile();
    }
}
