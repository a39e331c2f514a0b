# Shared bootstrap functions: install on a fresh Debian machine what Maven cannot fetch. Sourced, not run.

# ensure_packages PKG...: apt-get install whichever of the Debian packages are missing (root or sudo).
ensure_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "bootstrap: installing Debian packages: ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# ensure_packages_no_start PKG...: ensure_packages, but without letting the packages' maintainer scripts start
# their services (nginx's postinst would otherwise leave a system nginx on port 80). Debian's invoke-rc.d asks
# /usr/sbin/policy-rc.d first: exit code 101 means "action forbidden". A policy-rc.d that is already there (Docker
# images ship one) is left alone; ours is removed again however the installation ends.
ensure_packages_no_start() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local policy=/usr/sbin/policy-rc.d sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ -e "$policy" ]; then
    ensure_packages "${missing[@]}"
    return
  fi
  printf '#!/bin/sh\n# bootstrap/lib.sh: no service starts while packages are installed\nexit 101\n' \
    | $sudo tee "$policy" >/dev/null
  $sudo chmod 755 "$policy"
  # also when the installation is interrupted: a forgotten policy-rc.d would stop every later service start
  trap "$sudo rm -f $policy" EXIT
  trap "$sudo rm -f $policy; exit 130" INT TERM
  local status=0
  ensure_packages "${missing[@]}" || status=$?
  $sudo rm -f "$policy"
  trap - EXIT INT TERM
  return $status
}

# install_maven_jar JAR GROUP ARTIFACT VERSION [POM]: put a jar that is not on Maven Central into the local
# Maven repository (once), stripping its manifest Class-Path so nothing undeclared leaks onto class paths.
install_maven_jar() {
  local jar=$1 group=$2 artifact=$3 version=$4 pom=${5:-}
  local repo="${MAVEN_REPO:-$HOME/.m2/repository}"
  local target="$repo/${group//.//}/$artifact/$version/$artifact-$version.jar"
  [ -f "$target" ] && return 0
  local work
  work=$(mktemp -d)
  (cd "$work" && jar xf "$jar" && rm -f META-INF/MANIFEST.MF && printf 'Manifest-Version: 1.0\n' > m.txt \
    && rm -f "$work"/*.SF "$work"/*.RSA && jar cfm "$work/stripped.jar" m.txt $(ls -A | grep -v -e '^m.txt$' -e '^stripped.jar$'))
  local args=(-q -B org.apache.maven.plugins:maven-install-plugin:3.1.3:install-file -Dfile="$work/stripped.jar"
              -DgroupId="$group" -DartifactId="$artifact" -Dversion="$version" -Dpackaging=jar)
  [ -n "$pom" ] && args+=(-DpomFile="$pom")
  # the checkout's Maven wrapper (bootstrap/..): no system Maven is installed
  "$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/mvnw" "${args[@]}"
  rm -rf "$work"
}
