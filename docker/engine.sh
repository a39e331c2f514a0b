#!/usr/bin/env bash
# A Docker engine for the tests (.ci/run; DockerComposeIT): `eval "$(docker/engine.sh start)"` uses the engine that
# answers (DOCKER_HOST's or the default socket) or, when none does and this is root, starts a private dockerd
# (Debian's docker.io) and prints the DOCKER_HOST to use; `docker/engine.sh stop` stops the one it started. It prints
# nothing, and says why on stderr, when it can start none: DockerComposeIT then skips and says so too.
# The private engine: vfs storage (works inside containers and on any file system), no iptables rules (ports are
# published by docker-proxy), its images in ${MEDJAVA_DOCKER_CACHE:-~/.cache/medjava/docker}/root so that a later run
# finds them built; its socket, pid and state under /run/medjava-docker.
set -euo pipefail
cache=${MEDJAVA_DOCKER_CACHE:-$HOME/.cache/medjava/docker}
run=/run/medjava-docker
sock="$run/docker.sock"

answers() { DOCKER_HOST=$1 timeout 20 docker version >/dev/null 2>&1; }

start() {
  if command -v docker >/dev/null && timeout 20 docker version >/dev/null 2>&1; then
    return 0 # an engine answers already: it is used as it is
  fi
  if answers "unix://$sock"; then # ours, left from an earlier run
    echo "export DOCKER_HOST=unix://$sock"
    return 0
  fi
  if ! command -v dockerd >/dev/null; then
    echo "engine.sh: no Docker engine and no dockerd (bootstrap/install-deps.sh --test installs docker.io)" >&2
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "engine.sh: no Docker engine answers, and starting dockerd needs root" >&2
    return 0
  fi
  mkdir -p "$cache/root" "$run"
  local extra=()
  for attempt in 1 2; do
    dockerd --data-root "$cache/root" --exec-root "$run/exec" --pidfile "$run/pid" -H "unix://$sock" \
      --iptables=false --storage-driver=vfs "${extra[@]}" >"$run/dockerd.log" 2>&1 &
    echo $! >"$run/started-by-engine.sh"
    for _ in $(seq 60); do
      answers "unix://$sock" && break
      kill -0 "$(cat "$run/started-by-engine.sh")" 2>/dev/null || break
      sleep 0.5
    done
    answers "unix://$sock" && break
    stop >/dev/null 2>&1 || true
    extra=(--bridge=none) # where the default bridge cannot be made; compose's own networks still work
  done
  if ! answers "unix://$sock"; then
    echo "engine.sh: dockerd did not start:" >&2
    tail -5 "$run/dockerd.log" >&2
    return 0
  fi
  # what a crashed run left in this private engine (the images stay: they are the cache)
  DOCKER_HOST="unix://$sock" docker container prune -f >/dev/null 2>&1 || true
  DOCKER_HOST="unix://$sock" docker volume prune -f >/dev/null 2>&1 || true
  echo "engine.sh: started a private dockerd (unix://$sock, its log $run/dockerd.log)" >&2
  echo "export DOCKER_HOST=unix://$sock"
}

stop() {
  [ -f "$run/started-by-engine.sh" ] || return 0
  local pid
  pid=$(cat "$run/started-by-engine.sh")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    for _ in $(seq 60); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.5
    done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid"
  fi
  # dockerd leaves its default network namespace mounted
  if mountpoint -q "$run/exec/netns/default" 2>/dev/null; then umount "$run/exec/netns/default" || true; fi
  rm -f "$run/started-by-engine.sh"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: docker/engine.sh start|stop" >&2; exit 2 ;;
esac
