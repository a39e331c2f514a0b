#!/bin/sh
# The entry point of docker/test/postgres.Dockerfile: on an empty data directory initdb (superuser postgres, password
# POSTGRES_PASSWORD, password logins over the network), then the scripts of /docker-entrypoint-initdb.d (*.sh sourced,
# *.sql through psql) against a server on the socket only, as postgres:15 does; then the server in the foreground.
set -eu
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
  pwfile=$(mktemp)
  printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
  initdb -D "$PGDATA" -U postgres --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >/dev/null
  rm -f "$pwfile"
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start >/dev/null
  export POSTGRES_USER=postgres PGUSER=postgres
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) echo "docker-entrypoint.sh: running $f"; . "$f" ;;
      *.sql) echo "docker-entrypoint.sh: running $f"; psql -v ON_ERROR_STOP=1 -q -f "$f" postgres ;;
    esac
  done
  pg_ctl -D "$PGDATA" -m fast -w stop >/dev/null
fi
exec postgres -D "$PGDATA" -c listen_addresses='*'
