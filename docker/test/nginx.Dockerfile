# nginx from Debian's packages (1.22), for engines that reach no registry (DockerComposeIT; docker/build-images.sh):
# a stand-in for nginx:1.27 that runs docker/nginx.conf as compose mounts it (see nginx-entrypoint.sh for the two
# differences it bridges).
ARG BASE_IMAGE=debian:bookworm-local
FROM ${BASE_IMAGE}
COPY nginx-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx libnginx-mod-stream \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb /etc/nginx/sites-enabled/*
EXPOSE 8080 11112
STOPSIGNAL SIGQUIT
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
