#!/bin/sh
# Run once by the postgres image on an empty data directory (/docker-entrypoint-initdb.d): the nodes' role and their
# database. The role owns the database (the store makes its tables there) and is no superuser: the superuser
# (postgres, POSTGRES_PASSWORD) stays the operator's, and PostgreSQL's reserved connections stay free for it
# (docs/cluster.md, as ./medjava cluster and the tests' ClusterHarness do).
set -eu
psql -v ON_ERROR_STOP=1 -q --username "${POSTGRES_USER:-postgres}" --dbname postgres \
  --set role="${MEDJAVA_DB_USER:-medjava}" --set password="$MEDJAVA_DB_PASSWORD" \
  --set database="${MEDJAVA_DB_NAME:-medjava}" <<'SQL'
CREATE ROLE :"role" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'password';
CREATE DATABASE :"database" OWNER :"role";
SQL
