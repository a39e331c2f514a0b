#!/usr/bin/env bash
# Throughput of the store cluster (1, 2, 3 coordinated nodes on PostgreSQL + S3Proxy behind nginx), of one node on
# files + H2, and of Orthanc (SQLite; 1 and 2 servers on one PostgreSQL), then a kill -9 failover under PUT load;
# printed as tables (docs/cluster-benchmark.md). Not part of the test suite: a measurement, run on purpose. ~8-12 min.
#   image-store/src/test/scripts/cluster-rates.sh [-Dbench.seconds=12] [-Dbench.connections=6] [-Dbench.warmup=8]
#                                                 [-Dbench.heap=512m] [-Dbench.only=single,cluster,orthanc]
# Needs the Debian packages wrk, nginx, postgresql, orthanc, orthanc-postgresql (apt-get install ...), and a built
# image-store (target/image-store.war, target/payara, target/s3proxy, target/plugins: mvn -o -pl image-store package
# -DskipTests). It compiles the test classes, waits (up to CLUSTER_RATES_WAIT s, 1200) until no other Payara Micro
# runs on the machine, and runs everything in a private network namespace (loopback only) when unshare allows it.
set -euo pipefail
cd "$(dirname "$0")/../../.."                      # image-store/
root=$(cd .. && pwd)
store=$(pwd)

missing=()
for tool in wrk nginx Orthanc; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || missing+=("$tool")
done
[ -e /usr/share/orthanc/plugins/libOrthancPostgreSQLIndex.so ] || missing+=(orthanc-postgresql)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
if [ ${#missing[@]} -gt 0 ]; then
  echo "missing: ${missing[*]}; install with: apt-get install -y wrk nginx postgresql orthanc orthanc-postgresql" >&2
  exit 1
fi
for f in target/image-store.war target/payara/payara-micro.jar target/s3proxy/s3proxy.jar target/plugins; do
  [ -e "$f" ] || { echo "no $store/$f: build it first (mvn -B -ntp -o -pl image-store package -DskipTests)" >&2; exit 1; }
done

mvn -B -ntp -o -q test-compile
mvn -B -ntp -o -q dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=/tmp/cluster-rates.cp

# A private copy of the WAR: a rebuild of target/ during the run does not change what the nodes deploy.
work=$(mktemp -d /tmp/cluster-rates-XXXXXX)
trap 'rm -rf "$work"' EXIT
cp target/image-store.war "$work/image-store.war"
echo "WAR: target/image-store.war of $(date -u -r target/image-store.war '+%F %T UTC'), sha256 $(sha256sum target/image-store.war | cut -c1-16)"

# Wait for 30 s without any other Payara Micro (a test suite's next class starts seconds after the last one ends).
others() { pgrep -fc 'payara-micro' || true; }
waited=0 quiet=0
while [ "$waited" -lt "${CLUSTER_RATES_WAIT:-1200}" ]; do
  if [ "$(others)" -eq 0 ]; then quiet=$((quiet + 1)); else quiet=0; fi
  [ "$quiet" -ge 3 ] && break
  [ $((waited % 60)) -eq 0 ] && echo "waiting: $(others) other Payara Micro process(es) running ($waited s so far)"
  sleep 10; waited=$((waited + 10))
done
echo "other Payara Micro processes at the start: $(others)"
echo "before: $(uptime)"

cmd=(java -Xmx1g -cp "target/test-classes:target/classes:$(cat /tmp/cluster-rates.cp)"
  -Dmedjava.root="$root" -Dpayara.jar="$store/target/payara/payara-micro.jar" -Dstore.war="$work/image-store.war"
  -Dstore.plugins="$store/target/plugins" -Ds3proxy.jar="$store/target/s3proxy/s3proxy.jar" "$@"
  org.medjava.store.server.bench.ClusterRates)
status=0
if [ "$(id -u)" = 0 ] && unshare -n true 2>/dev/null; then
  echo "network: a private namespace (loopback only)"
  unshare -n -- bash -c 'ip link set lo up && exec "$@"' bash "${cmd[@]}" || status=$?
else
  echo "network: the machine's (every server binds or is reached on 127.0.0.1)"
  "${cmd[@]}" || status=$?
fi
echo "after: $(uptime)"
echo "other Payara Micro processes at the end: $(( $(others) ))"
exit $status
