#!/usr/bin/env bash
# Ingest rates of the image store and of Orthanc (C-STORE and STOW-RS, 1 and 4 senders) on this machine, printed as
# a table. Not part of the test suite: a measurement, run on purpose.
#   image-store/src/test/scripts/ingest-rates.sh [instances per run, default 200]
set -euo pipefail
cd "$(dirname "$0")/../../.."                      # image-store/
root=$(cd .. && pwd)
mvn -B -ntp -q -o -DskipTests package              # the WAR, Payara Micro, the test classes
mvn -B -ntp -q -o dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/ingest-rates.cp
exec java -Xmx1g -cp "target/test-classes:target/classes:$(cat target/ingest-rates.cp)" \
  -Dmedjava.root="$root" -Dpayara.jar=target/payara/payara-micro.jar -Dstore.war=target/image-store.war \
  -Dstore.plugins=target/plugins org.medjava.store.bench.IngestRates "$@"
