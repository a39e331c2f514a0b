#!/usr/bin/env bash
# Builds the images of docker/compose.yaml on an engine that reaches no image registry, all from Debian's packages
# (the base from debootstrap: docker/base-image.sh), the store from a build made on the host:
#   ./mvnw -pl image-store -am package -DskipTests      (the WAR, Payara Micro, the plugins, S3Proxy's jar)
#   docker/build-images.sh [TAG]                        (default TAG: local)
# then, for docker compose (or docker-compose 1.29), the settings it prints (MEDJAVA_IMAGE=medjava/image-store:local,
# ...).
# Images: medjava/image-store-runtime (Debian's JRE 17 and the codec libraries: docker/Dockerfile's runtime-base),
# medjava/image-store (that and the store: docker/prebuilt.Dockerfile), medjava/s3proxy (the same runtime and
# S3Proxy's jar), medjava/postgres and medjava/nginx (docker/test/). Layers are cached by the engine: a second run
# with an unchanged WAR builds nothing. Uses the classic builder, which every engine has.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tag=${1:-local}
base=${MEDJAVA_BASE_IMAGE:-debian:bookworm-local}
target="$root/image-store/target"
export DOCKER_BUILDKIT=0

for f in "$target/image-store.war" "$target/payara/payara-micro.jar" "$target/s3proxy/s3proxy.jar"; do
  [ -f "$f" ] || { echo "build-images.sh: $f is missing: ./mvnw -pl image-store -am package -DskipTests" >&2; exit 1; }
done
docker image inspect "$base" >/dev/null 2>&1 || "$root/docker/base-image.sh" "$base"

# the contexts: small directories of hard links (copies across file systems), not the repository
ctx="$target/docker-context"
rm -rf "$ctx"
mkdir -p "$ctx/empty" "$ctx/store" "$ctx/s3proxy"
link() { cp -l "$@" 2>/dev/null || cp "$@"; }
link "$target/payara/payara-micro.jar" "$target/image-store.war" "$root/deploy/payara-preboot.txt" "$ctx/store/"
cp -r "$target/plugins" "$ctx/store/plugins"
cp -r "$root/testdata/samples" "$ctx/store/samples"
link "$target/s3proxy/s3proxy.jar" "$ctx/s3proxy/"
cp "$root/docker/test/s3proxy-run.sh" "$ctx/s3proxy/run-docker-container.sh"

build() { # TAG DOCKERFILE CONTEXT [ARGS...]
  local image=$1 file=$2 context=$3
  shift 3
  local t0=$SECONDS
  docker build -q --network host --label org.medjava.build=images -f "$file" -t "$image" "$@" "$context" \
    >/dev/null
  echo "build-images.sh: $image ($((SECONDS - t0)) s)" >&2
}
build "medjava/image-store-runtime:$tag" "$root/docker/Dockerfile" "$ctx/empty" --target runtime-base \
  --build-arg BASE_IMAGE="$base"
build "medjava/image-store:$tag" "$root/docker/prebuilt.Dockerfile" "$ctx/store" \
  --build-arg RUNTIME="medjava/image-store-runtime:$tag"
build "medjava/s3proxy:$tag" "$root/docker/test/s3proxy.Dockerfile" "$ctx/s3proxy" \
  --build-arg RUNTIME="medjava/image-store-runtime:$tag"
build "medjava/postgres:$tag" "$root/docker/test/postgres.Dockerfile" "$root/docker/test" --build-arg BASE_IMAGE="$base"
build "medjava/nginx:$tag" "$root/docker/test/nginx.Dockerfile" "$root/docker/test" --build-arg BASE_IMAGE="$base"
rm -rf "$ctx"
# the store image a new WAR replaced (vfs keeps each layer whole: hundreds of MB)
docker image prune -f --filter label=org.medjava.build=images >/dev/null

cat <<SETTINGS
MEDJAVA_IMAGE=medjava/image-store:$tag
MEDJAVA_POSTGRES_IMAGE=medjava/postgres:$tag
MEDJAVA_S3PROXY_IMAGE=medjava/s3proxy:$tag
MEDJAVA_NGINX_IMAGE=medjava/nginx:$tag
SETTINGS
