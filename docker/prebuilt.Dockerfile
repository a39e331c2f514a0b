# The store image of docker/Dockerfile from a build made on the host, without Maven in a container (DockerComposeIT,
# docker/build-images.sh): the context is a directory laid out as /opt/medjava (payara-micro.jar, image-store.war,
# payara-preboot.txt, plugins/, samples/); RUNTIME is docker/Dockerfile's runtime-base stage, built with
# `--target runtime-base`, so both images have the same runtime, settings and entry point.
ARG RUNTIME=medjava/image-store-runtime:latest
FROM ${RUNTIME}
COPY . /opt/medjava/
