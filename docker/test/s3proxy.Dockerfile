# S3Proxy for engines that reach no registry (DockerComposeIT; docker/build-images.sh): the jar the tests run
# (image-store/target/s3proxy/s3proxy.jar, org.gaul:s3proxy) on the store image's Java runtime (RUNTIME, docker/
# Dockerfile's runtime-base stage, so the JRE layer is shared), configured by the environment variables of
# andrewgaul/s3proxy that docker/compose.yaml sets, with the same entry point path. The context holds s3proxy.jar and
# s3proxy-run.sh.
ARG RUNTIME=medjava/image-store-runtime:local
FROM ${RUNTIME}
COPY . /opt/s3proxy/
# root, as andrewgaul/s3proxy: the objects volume is created root-owned
USER root
WORKDIR /opt/s3proxy
HEALTHCHECK NONE
EXPOSE 80
ENTRYPOINT ["/opt/s3proxy/run-docker-container.sh"]
