#!/usr/bin/env bash
# Installs, on a fresh Debian (bookworm) machine, what Maven cannot fetch: by default what the build and the store
# need (./medjava start, build, ...); with --cluster also PostgreSQL and nginx (./medjava cluster); with --test all
# that and the peers the tests run against (./medjava test).
# Idempotent and quick when everything is there.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

# The JDK (17, the project's release) and the C toolchain for c-reference/ and image-codec's bridges (C++ for
# OpenJPH's). Not Maven: ./mvnw fetches the pinned one from Maven Central; unzip unpacks it (without unzip the
# wrapper takes the tar.gz, whose checksum is not the pinned one).
command -v javac >/dev/null && command -v gcc >/dev/null && command -v g++ >/dev/null && command -v make >/dev/null \
  && command -v unzip >/dev/null || ensure_packages openjdk-17-jdk-headless gcc g++ make libc6-dev unzip

java_major=$(javac -version 2>&1 | sed -E 's/^javac ([0-9]+).*/\1/')
if [ "${java_major:-0}" -lt 17 ]; then
  echo "bootstrap: javac $java_major found, the build needs 17 or newer" >&2
  exit 1
fi

# Node.js and npm: the build bundles the browser application (web/) from npm packages; Debian's are enough (Node 18+).
command -v node >/dev/null && command -v npm >/dev/null || ensure_packages nodejs npm
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "${node_major:-0}" -lt 18 ]; then
  echo "bootstrap: node $node_major found, the web build needs 18 or newer" >&2
  exit 1
fi

# PixelMed (DICOM, for image-codec) from Debian into the local Maven repository.
"$here/install-pixelmed.sh"

# CharLS (JPEG-LS): image-codec's JNI bridge is compiled against its headers (libcharls-dev), and the store and the
# viewer load libcharls2 at run time to decode JPEG-LS (without it JPEG-LS objects are kept but answer 422).
ensure_packages libcharls2 libcharls-dev
# OpenJPEG (JPEG 2000) and OpenJPH (HTJ2K), the same way: image-codec's bridges are compiled against their headers,
# and the store and the viewer load libopenjp2-7 and libopenjph0.9 to decode JPEG 2000 and HTJ2K exactly.
ensure_packages libopenjp2-7 libopenjp2-7-dev libopenjph0.9 libopenjph-dev pkg-config

# bubblewrap (bwrap): the store and the viewer run filter plugins in worker processes confined to namespaces of
# their own (no network, no files but their code and shared segment); without it workers are plain processes.
ensure_packages bubblewrap

case "${1:-}" in --test | --cluster) ;; *) exit 0 ;; esac

# PostgreSQL server binaries: the index's production database, which the tests start privately (LocalPostgres)
# and ./medjava cluster starts as the nodes' shared index.
ensure_packages postgresql

# nginx: the load balancer in front of the nodes (ClusterHarness, ./medjava cluster). Only the binary is wanted:
# each user runs a private nginx with its own config, so the package must not leave a system nginx on port 80.
ensure_packages_no_start nginx

[ "${1:-}" = --test ] || exit 0

# Independent DICOM peers the PACS tests talk to (DCMTK tools, Orthanc with its DICOMweb plugin; dciodvfy from
# dicom3tools validates the objects we write), and an X server for the viewer's GUI tests (Xvfb).
ensure_packages dcmtk orthanc orthanc-dicomweb dicom3tools xvfb xauth fonts-dejavu-core
# pydicom reads the derived DICOM objects we write (HU values of a filtered CT, with numpy) as an independent reader,
# and writes the JPEG 2000 and HTJ2K objects the codec tests read.
ensure_packages python3-pydicom python3-numpy
# dicom-anonymizer, the independent PS3.15 Basic Profile de-identifier store-core's de-identification tests compare
# with (DeidCorpusTest). Not packaged by Debian: pip, pinned, without dependencies (its two, pydicom and tqdm, are
# Debian's), into /usr/local beside the system Python, only when it is not there yet.
ensure_packages python3-pip python3-tqdm
/usr/bin/python3 -c 'import dicomanonymizer' 2>/dev/null \
  || /usr/bin/python3 -m pip install -q --no-deps --break-system-packages dicom-anonymizer==2.1.0
# Independent JPEG 2000 and HTJ2K encoders and decoders (OpenJPEG's and OpenJPH's command-line tools): the codec tests
# make their codestreams with them and check the store's decoding against theirs.
ensure_packages libopenjp2-tools openjph-tools
# A real browser for the web application's tests (driven by playwright-core, which never downloads browsers).
ensure_packages chromium
# ss (iproute2): LifecycleIT checks which ports the store's process listens on.
ensure_packages iproute2
# libzmq (C ØMQ) for the benchmarks' ØMQ experiment (issue 20): its C programs are built against it; without it
# the build skips them with a message and the report has no libzmq column.
ensure_packages libzmq3-dev
# wrk, the HTTP load generator of the benchmarks' serve step (issue 21): the store's GETs against nginx and Orthanc
# (./medjava bench --standard or --full; without it the step is skipped with a note in the report); h2load
# (nghttp2-client) loads the store over HTTP/2 (issue 30; without it the report has no HTTP/2 cell).
ensure_packages wrk nghttp2-client
# A Docker engine (dockerd 20.10, Debian's docker.io, not started as a service: docker/engine.sh starts a private one
# for the run), Compose (docker-compose 1.29) and debootstrap, which makes the images' base where no registry is
# reachable (docker/base-image.sh): DockerComposeIT runs docker/compose.yaml on them.
ensure_packages_no_start docker.io docker-compose debootstrap
