#!/usr/bin/env bash
# Makes a Debian bookworm base image from Debian's packages, for engines that reach no image registry (the docker
# files' BASE_IMAGE build argument then names it instead of debian:bookworm-slim):
#   docker/base-image.sh [IMAGE]        (default debian:bookworm-local; root: debootstrap needs it)
# The root file system (debootstrap --variant=minbase, about 110 MB) is kept as a tar under
# ${MEDJAVA_DOCKER_CACHE:-~/.cache/medjava/docker}, so that a second engine, or the same after a prune, imports it
# in seconds. Nothing is done when the engine has the image already. The mirror is the first of this machine's apt
# sources (or MEDJAVA_DEBIAN_MIRROR).
set -euo pipefail
image=${1:-debian:bookworm-local}
cache=${MEDJAVA_DOCKER_CACHE:-$HOME/.cache/medjava/docker}
tarball="$cache/bookworm-minbase.tar"

if docker image inspect "$image" >/dev/null 2>&1; then
  exit 0
fi

mirror_of_this_machine() {
  local m
  m=$(sed -nE 's/^URIs: *([^ ]+).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security \
    | head -1)
  [ -n "$m" ] || m=$(sed -nE 's/^deb +(\[[^]]*\] +)?([^ ]+) +bookworm .*/\2/p' /etc/apt/sources.list 2>/dev/null \
    | head -1)
  echo "${m:-http://deb.debian.org/debian}"
}

if [ ! -s "$tarball" ]; then
  command -v debootstrap >/dev/null || { echo "base-image.sh: debootstrap is not installed" >&2; exit 1; }
  [ "$(id -u)" -eq 0 ] || { echo "base-image.sh: debootstrap needs root" >&2; exit 1; }
  mirror=${MEDJAVA_DEBIAN_MIRROR:-$(mirror_of_this_machine)}
  mkdir -p "$cache"
  root=$(mktemp -d "$cache/rootfs.XXXXXX")
  trap 'rm -rf "$root"' EXIT
  echo "base-image.sh: debootstrap bookworm from $mirror (a few minutes, once)" >&2
  debootstrap --variant=minbase bookworm "$root" "$mirror" >"$cache/debootstrap.log" 2>&1 \
    || { tail -20 "$cache/debootstrap.log" >&2; exit 1; }
  # what debian:bookworm-slim does too: no caches, docs or man pages; security updates from the same mirror host
  rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* \
    "$root"/usr/share/man/* "$root"/usr/share/locale/*
  printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s-security bookworm-security main\n' \
    "$mirror" "$mirror" "$mirror" >"$root/etc/apt/sources.list"
  printf 'path-exclude /usr/share/doc/*\npath-exclude /usr/share/man/*\npath-exclude /usr/share/locale/*\n' \
    >"$root/etc/dpkg/dpkg.cfg.d/docker-slim"
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$root/etc/apt/apt.conf.d/docker-slim"
  chmod 755 "$root" # mktemp made it 0700: the image's / must be open to its users
  tar -C "$root" --numeric-owner -cf "$tarball.part" .
  mv "$tarball.part" "$tarball"
fi
docker import "$tarball" "$image" >/dev/null
echo "base-image.sh: $image imported from $tarball" >&2
