#!/usr/bin/env bash
# ./medjava cluster: a local cluster without Docker, every part a real process on 127.0.0.1, everything under
# MEDJAVA_DATA (data/cluster): a private PostgreSQL (the shared index and the nodes' coordination), S3Proxy (the
# shared objects, in files), three store nodes on MEDJAVA_PORT+1..+3 (each its own data directory), nginx on
# MEDJAVA_PORT (8080) balancing over them. Ctrl-C stops it all. Secrets (database, S3 and first admin password) are
# generated once into $MEDJAVA_DATA/secrets. MEDJAVA_NODES (3) and MEDJAVA_NODE_HEAP (512m) change the node count
# and their heap. Run by the Java command line (org.medjava.cli.dev.ClusterCommand) in the caller's directory.
# docker/compose.yaml is the cluster's definition: ClusterTopologyTest (cli) fails when this script starts other
# parts or gives a node other settings, and nginx's rules for a request are deploy/cluster/nginx-proxy.conf.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CALLER_DIR=$PWD # MEDJAVA_DATA is the caller's
cd "$ROOT"
MVN=("$ROOT/mvnw" -B -ntp)
STORE="$ROOT/image-store/target"
# the store's JVM, as org.medjava.cli.store.StoreLaunch starts it
STORE_JVM="-XX:G1HeapRegionSize=4m"

caller_path() {
  case "$1" in
    /*) realpath -m -- "$1" ;;
    *) realpath -m -- "$CALLER_DIR/$1" ;;
  esac
}

port_free() {
  ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

free_port_from() {
  local p=$1
  while ! port_free "$p"; do p=$((p + 1)); done
  echo "$p"
}

# Payara's own HTTP port behind a node's front on port $1 (as org.medjava.cli.store.StoreProbe.backendPortFor).
backend_port_for() {
  if [ $(($1 + 1000)) -lt 65000 ]; then free_port_from $(($1 + 1000)); else free_port_from $(($1 - 1000)); fi
}

# Whether the store on port $1 answers /health/ready with its own checks (plain bash; 5 s at most).
store_ready() {
  local reply
  reply=$(timeout 5 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0" || exit 1
    printf "GET /health/ready HTTP/1.0\r\nHost: localhost\r\n\r\n" >&3
    cat <&3' "$1" 2>/dev/null || true)
  [[ $reply == "HTTP/1."?" 200"* && $reply == *'"name"'* ]]
}
random_secret() {
  LC_ALL=C tr -dc 'A-Za-z0-9' </dev/urandom | head -c "${1:-24}" || true
}

# The newest /usr/lib/postgresql/MAJOR/bin with initdb.
pg_bin() {
  local d
  d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
  [ -n "$d" ] && [ -x "$d/initdb" ] || { echo "PostgreSQL is not installed (bootstrap/install-deps.sh --cluster)" >&2; return 1; }
  echo "$d"
}

# Runs a PostgreSQL program; as root, as the postgres user (PostgreSQL refuses to run as root).
pg_run() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

# nginx's configuration for the cluster: the rules of deploy/cluster/nginx-proxy.conf, as docker/nginx.conf. $1: its
# directory, $2: its port; the upstream list is $1/upstreams.conf, written by cluster_upstreams.
cluster_nginx_conf() {
  local dir=$1 port=$2 user=""
  [ "$(id -u)" -eq 0 ] && user="user root;"
  cat <<NGINX
$user
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
    log_format upstreams '\$remote_addr [\$time_iso8601] "\$request" \$status \$body_bytes_sent '
                         'upstream="\$upstream_addr" upstream_status="\$upstream_status" rt=\$request_time';
    access_log $dir/logs/access.log upstreams;
    client_body_temp_path $dir/temp/client_body;
    proxy_temp_path $dir/temp/proxy;
    fastcgi_temp_path $dir/temp/fastcgi;
    uwsgi_temp_path $dir/temp/uwsgi;
    scgi_temp_path $dir/temp/scgi;

    upstream medjava {
        include $dir/upstreams.conf;
        keepalive 16;
    }

    server {
        listen 127.0.0.1:$port;
        client_max_body_size 0;

        location / {
            include "$ROOT/deploy/cluster/nginx-proxy.conf";
        }
    }
}
NGINX
}

# Writes the upstream list: every node, those not ready (by /health/ready) marked down. $1: nginx's directory;
# the remaining arguments: node ports. Prints the ready ports.
cluster_upstreams() {
  local dir=$1 p; shift
  : >"$dir/upstreams.conf.new"
  for p in "$@"; do
    echo "server 127.0.0.1:$p max_fails=1 fail_timeout=5s;" >>"$dir/upstreams.conf.new"
  done
  mv "$dir/upstreams.conf.new" "$dir/upstreams.conf"
}

# The nodes whose /health/ready answers 200 now, by port (for the log).
cluster_ready() {
  local p ready=()
  for p in "$@"; do
    store_ready "$p" && ready+=("$p")
  done
  echo "${ready[*]}"
}

cluster_start() {
  bootstrap/install-deps.sh --cluster
  local n=0
  [ -d "$STORE/plugins" ] && n=$(ls "$STORE"/plugins/*.jar 2>/dev/null | wc -l)
  if [ "$n" -lt 8 ] || [ ! -f "$STORE/image-store.war" ] || [ ! -f "$STORE/payara/payara-micro.jar" ]; then
    echo "building (tests skipped)..." >&2
    "${MVN[@]}" -q -DskipTests install
  fi
  local s3jar="$STORE/s3proxy/s3proxy.jar"
  if [ ! -f "$s3jar" ]; then
    # the build copies it (process-test-resources); not when it ran with -Dmaven.test.skip
    local version
    version=$(sed -n 's:.*<s3proxy.version>\(.*\)</s3proxy.version>.*:\1:p' "$ROOT/pom.xml" | head -1)
    "${MVN[@]}" -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
      -Dartifact="org.gaul:s3proxy:$version:jar:jar-with-dependencies" -DoutputDirectory="$STORE/s3proxy"
    mv "$STORE/s3proxy/s3proxy-$version-jar-with-dependencies.jar" "$s3jar"
  fi

  local port=${MEDJAVA_PORT:-8080} data nodes=${MEDJAVA_NODES:-3}
  data=$(caller_path "${MEDJAVA_DATA:-$ROOT/data/cluster}")
  local heap=${MEDJAVA_NODE_HEAP:-512m} i
  local node_ports=()
  for i in $(seq 1 "$nodes"); do node_ports+=($((port + i))); done
  for p in "$port" "${node_ports[@]}"; do
    port_free "$p" || { echo "port $p is in use; start with MEDJAVA_PORT=<another port> ./medjava cluster" >&2; exit 1; }
  done
  # each node's Payara listener, behind the node's front on the loopback: distinct free ports as for ./medjava start
  local backend_ports=() b
  b=$(backend_port_for "$port")
  for i in $(seq 1 "$nodes"); do backend_ports+=("$b"); b=$(free_port_from $((b + 1))); done
  mkdir -p "$data"
  data=$(cd "$data" && pwd)
  local samples="$ROOT/../shared/testdata"
  [ -d "$samples/dicom" ] || samples="$ROOT/testdata/samples"

  # Secrets: generated on the first start, kept for the next ones (the admin password only counts on the first).
  local secrets="$data/secrets"
  if [ ! -f "$secrets" ]; then
    ( umask 077
      printf 'DB_PASSWORD=%s\nS3_ACCESS_KEY=medjava\nS3_SECRET_KEY=%s\nADMIN_PASSWORD=%s\n' \
        "$(random_secret 24)" "$(random_secret 32)" "$(random_secret 20)" >"$secrets" )
  fi
  # shellcheck disable=SC1090
  . "$secrets"

  local pids=() pgdata="$data/postgres" pgbin pgport s3port nginxdir="$data/nginx" stopping=""
  cluster_stop() {
    [ -n "$stopping" ] && return
    stopping=1
    trap - INT TERM
    echo; echo "stopping the cluster..."
    local pid
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if [ -f "$pgdata/postmaster.pid" ]; then
      pg_run "$pgbin/pg_ctl" -D "$pgdata" -m fast -w stop >/dev/null || true
    fi
    echo "stopped (data kept in $data)"
  }
  trap 'cluster_stop; exit 130' INT
  trap 'cluster_stop; exit 143' TERM
  trap 'cluster_stop' EXIT

  # PostgreSQL: its own data directory, loopback only, password authentication over TCP.
  pgbin=$(pg_bin)
  pgport=$(free_port_from $((port + 100)))
  if [ ! -f "$pgdata/PG_VERSION" ]; then
    echo "creating the cluster's PostgreSQL in $pgdata..."
    mkdir -p "$pgdata"
    printf '%s\n' "$DB_PASSWORD" >"$data/.pwfile"
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$pgdata" "$data/.pwfile"; fi
    chmod 700 "$pgdata"
    # the superuser is the operator's (medjava_admin); the nodes log in as medjava, which only owns its database
    pg_run "$pgbin/initdb" -D "$pgdata" -U medjava_admin --pwfile="$data/.pwfile" -A scram-sha-256 \
      -E UTF8 --locale=C >"$data/postgres-initdb.log" 2>&1 \
      || { rm -f "$data/.pwfile"; cat "$data/postgres-initdb.log" >&2; exit 1; }
    rm -f "$data/.pwfile"
    echo medjava_admin >"$data/postgres-admin"
  fi
  # clusters made before the nodes had a role of their own: medjava is the superuser there
  pgadmin=$(cat "$data/postgres-admin" 2>/dev/null || echo medjava)
  echo "starting PostgreSQL on 127.0.0.1:$pgport..."
  pg_run "$pgbin/pg_ctl" -D "$pgdata" -l "$pgdata/server.log" -w -t 60 \
    -o "-p $pgport -k /tmp -c listen_addresses=127.0.0.1" start >/dev/null \
    || { tail -20 "$pgdata/server.log" >&2; exit 1; }
  if ! PGPASSWORD=$DB_PASSWORD "$pgbin/psql" -h 127.0.0.1 -p "$pgport" -U "$pgadmin" -d postgres -tAc \
      "SELECT 1 FROM pg_roles WHERE rolname = 'medjava'" | grep -q 1; then
    PGPASSWORD=$DB_PASSWORD "$pgbin/psql" -h 127.0.0.1 -p "$pgport" -U "$pgadmin" -d postgres -qc \
      "CREATE ROLE medjava LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '$DB_PASSWORD'"
  fi
  if ! PGPASSWORD=$DB_PASSWORD "$pgbin/psql" -h 127.0.0.1 -p "$pgport" -U "$pgadmin" -d postgres -tAc \
      "SELECT 1 FROM pg_database WHERE datname = 'medjava'" | grep -q 1; then
    PGPASSWORD=$DB_PASSWORD "$pgbin/createdb" -h 127.0.0.1 -p "$pgport" -U "$pgadmin" -O medjava medjava
  fi

  # S3Proxy: the objects as files under s3/data; the bucket is a directory of it.
  s3port=$(free_port_from $((port + 101)))
  mkdir -p "$data/s3/data/medjava"
  cat >"$data/s3/s3proxy.properties" <<PROPS
s3proxy.endpoint=http://127.0.0.1:$s3port
s3proxy.authorization=aws-v2-or-v4
s3proxy.identity=$S3_ACCESS_KEY
s3proxy.credential=$S3_SECRET_KEY
jclouds.provider=filesystem-nio2
jclouds.identity=unused
jclouds.credential=unused
jclouds.filesystem.basedir=$data/s3/data
PROPS
  chmod 600 "$data/s3/s3proxy.properties"
  echo "starting S3Proxy on 127.0.0.1:$s3port..."
  LOG_LEVEL=warn java -Xmx256m -XX:+UseSerialGC -jar "$s3jar" --properties "$data/s3/s3proxy.properties" \
    >>"$data/s3/s3proxy.log" 2>&1 &
  pids+=($!)
  for i in $(seq 1 300); do
    port_free "$s3port" || break
    kill -0 "${pids[-1]}" 2>/dev/null || { tail -20 "$data/s3/s3proxy.log" >&2; exit 1; }
    sleep 0.2
  done

  # The nodes: node 1 first (it creates the schema and seeds the samples and plugins: once per cluster), then the
  # others together.
  start_node() {
    local i=$1 p=${node_ports[$(($1 - 1))]} backend=${backend_ports[$(($1 - 1))]} dir="$data/node$1" seed=()
    mkdir -p "$dir"
    # Nodes listen on the loopback only (their fronts by medjava.http.bind, Payara's listener by
    # deploy/payara-preboot.txt), behind nginx, and so may trust its X-Forwarded-For: the client address that login
    # throttling and the access log go by is the real client's, not nginx's.
    [ "$i" -eq 1 ] && seed=(-Dmedjava.seed.images="$samples" -Dmedjava.seed.plugins="$STORE/plugins")
    MEDJAVA_DB_PASSWORD=$DB_PASSWORD MEDJAVA_STORAGE_S3_SECRET_KEY=$S3_SECRET_KEY \
    MEDJAVA_ADMIN_INITIAL_PASSWORD=$ADMIN_PASSWORD \
    java -Xmx"$heap" $STORE_JVM ${MEDJAVA_JAVA_OPTS:-} -Dmedjava.data-dir="$dir" -Dmedjava.public-url="http://localhost:$port" \
      -Dmedjava.cluster.enabled=true -Dmedjava.cluster.node="node$i" \
      -Dmedjava.db.url="jdbc:postgresql://127.0.0.1:$pgport/medjava" -Dmedjava.db.user=medjava \
      -Dmedjava.storage=s3 -Dmedjava.storage.s3.endpoint="http://127.0.0.1:$s3port" \
      -Dmedjava.storage.s3.bucket=medjava -Dmedjava.storage.s3.prefix=images \
      -Dmedjava.storage.s3.access-key="$S3_ACCESS_KEY" -Dmedjava.http.trust-forwarded=true "${seed[@]}" \
      -Dmedjava.http.port="$p" -Dmedjava.http.bind=127.0.0.1 -Dmedjava.http.backend-port="$backend" \
      -jar "$STORE/payara/payara-micro.jar" --deploy "$STORE/image-store.war" --contextroot / --port "$backend" \
      --prebootcommandfile "$ROOT/deploy/payara-preboot.txt" --nocluster --disablephonehome >>"$dir/console.log" 2>&1 &
    pids+=($!)
    echo "starting node$i on http://localhost:$p/ (log: $dir/console.log)..."
  }
  wait_node() {
    local i=$1 p=${node_ports[$(($1 - 1))]} pid=$2 k
    for k in $(seq 1 600); do
      store_ready "$p" && return 0
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.5
    done
    echo "node$i did not start; the end of $data/node$i/console.log:" >&2
    tail -40 "$data/node$i/console.log" >&2
    exit 1
  }
  start_node 1
  wait_node 1 "${pids[-1]}"
  local first=${#pids[@]}
  for i in $(seq 2 "$nodes"); do start_node "$i"; done
  for i in $(seq 2 "$nodes"); do wait_node "$i" "${pids[$((first + i - 2))]}"; done

  # nginx in front: the upstream list follows the nodes' /health/ready (checked every 2 s below).
  mkdir -p "$nginxdir/logs" "$nginxdir/temp"
  cluster_nginx_conf "$nginxdir" "$port" >"$nginxdir/nginx.conf"
  cluster_upstreams "$nginxdir" "${node_ports[@]}"
  local ready
  ready=$(cluster_ready "${node_ports[@]}")
  local nginx=(/usr/sbin/nginx -p "$nginxdir/" -c "$nginxdir/nginx.conf" -e "$nginxdir/logs/error.log")
  "${nginx[@]}" -t -q || exit 1
  "${nginx[@]}" -g 'daemon off;' >>"$nginxdir/logs/console.log" 2>&1 &
  pids=("$!" "${pids[@]}") # stopped first
  for i in $(seq 1 100); do port_free "$port" || break; sleep 0.1; done

  echo
  echo "MedJava cluster ready: $nodes nodes behind nginx"
  echo "  use:      http://localhost:$port/"
  for i in $(seq 1 "$nodes"); do echo "  node$i:    http://localhost:${node_ports[$((i - 1))]}/"; done
  echo "  login:    admin / $ADMIN_PASSWORD   (set on the cluster's first start; kept in $secrets)"
  echo "  database: jdbc:postgresql://127.0.0.1:$pgport/medjava (user medjava, password in $secrets)"
  echo "  objects:  S3 http://127.0.0.1:$s3port bucket medjava (files under $data/s3/data)"
  echo "Ctrl-C stops it all."

  # Health: nginx's passive checks leave out a node that refuses connections or answers 502/503 (idempotent requests
  # go to the next node) and try it again 5 s later, so nginx is never reloaded while the cluster runs: a reload
  # closes its idle keep-alive connections, and a client that sends on one at that moment gets a reset. This loop
  # only reports readiness changes.
  local now
  while true; do
    sleep 2
    now=$(cluster_ready "${node_ports[@]}")
    if [ "$now" != "$ready" ]; then
      echo "$(date +%T) ready nodes: ${now:-none} (were: ${ready:-none})"
      ready=$now
    fi
  done
}

cluster_start "$@"
