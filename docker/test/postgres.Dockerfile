# PostgreSQL 15 from Debian's packages, for engines that reach no registry (DockerComposeIT; docker/build-images.sh):
# a stand-in for postgres:15 with the part of its interface docker/compose.yaml uses (POSTGRES_PASSWORD for the
# superuser postgres, the scripts in /docker-entrypoint-initdb.d run once on an empty data directory, the data in
# /var/lib/postgresql/data).
ARG BASE_IMAGE=debian:bookworm-local
FROM ${BASE_IMAGE}
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
# no "main" cluster made by the package: the entry point makes the one in the volume
RUN mkdir -p /etc/postgresql-common/createcluster.d \
 && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.d/no-main.conf \
 && apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
 && mkdir -p /var/lib/postgresql/data /docker-entrypoint-initdb.d /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data LANG=C.UTF-8
USER postgres
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]
