#!/usr/bin/env bash
# PixelMed (DICOM) is not on Maven Central: take it from Debian (bookworm pins these versions) and install it into
# the local Maven repository as com.pixelmed:pixelmed:20220618 and com.pixelmed:pixelmed-imageio:20200328, with
# the hand-written POMs beside this script (they declare the Maven Central dependencies the Debian manifest's
# Class-Path pointed at; install_maven_jar strips that Class-Path). Idempotent: a no-op once both are installed.
# Run by install-deps.sh; see shared/notes/pixelmed.md for why it is done this way.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

PIXELMED_VERSION=20220618
PIXELMED_IMAGEIO_VERSION=20200328
repo="${MAVEN_REPO:-$HOME/.m2/repository}"
# installed ARTIFACT VERSION: the jar is in the local repo with the POM of this checkout (an edited POM reinstalls).
installed() {
  local dir="$repo/com/pixelmed/$1/$2"
  [ -f "$dir/$1-$2.jar" ] && cmp -s "$dir/$1-$2.pom" "$here/$1-$2.pom" && return 0
  rm -f "$dir/$1-$2.jar"
  return 1
}
installed pixelmed "$PIXELMED_VERSION" && installed pixelmed-imageio "$PIXELMED_IMAGEIO_VERSION" && exit 0

ensure_packages libpixelmed-java libpixelmed-imageio-java

# The jar a Debian package ships in /usr/share/java: the real (versioned) file, not the unversioned link.
find_jar() {
  local pkg=$1 f
  for f in $(dpkg -L "$pkg" | grep -E '^/usr/share/java/[^/]+\.jar$'); do
    [ -f "$f" ] && [ ! -L "$f" ] && { echo "$f"; return 0; }
  done
  echo "bootstrap: Debian package $pkg ships no jar in /usr/share/java" >&2
  return 1
}
installed_version() { dpkg-query -W -f='${Version}' "$1"; }
case "$(installed_version libpixelmed-java)" in
  "$PIXELMED_VERSION"*) ;;
  *) echo "bootstrap: warning: libpixelmed-java $(installed_version libpixelmed-java) installed, installing it as" \
       "$PIXELMED_VERSION" >&2 ;;
esac

pixelmed_jar=$(find_jar libpixelmed-java)
imageio_jar=$(find_jar libpixelmed-imageio-java)
install_maven_jar "$pixelmed_jar" com.pixelmed pixelmed "$PIXELMED_VERSION" "$here/pixelmed-$PIXELMED_VERSION.pom"
install_maven_jar "$imageio_jar" com.pixelmed pixelmed-imageio "$PIXELMED_IMAGEIO_VERSION" \
  "$here/pixelmed-imageio-$PIXELMED_IMAGEIO_VERSION.pom"
echo "bootstrap: installed PixelMed $PIXELMED_VERSION and pixelmed-imageio $PIXELMED_IMAGEIO_VERSION into $repo"
