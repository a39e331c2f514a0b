#!/bin/sh
# The entry point of docker/test/nginx.Dockerfile: runs the mounted /etc/nginx/nginx.conf with Debian's nginx 1.22,
# which differs from nginx:1.27 in two ways: its stream module is a dynamic one (loaded here), and its upstream
# servers have no `resolve` (1.27.3): dropped here, so the nodes' names are resolved when nginx starts or reloads
# (SIGHUP): a node container that comes back with another address is found again after a reload.
set -eu
conf=/tmp/nginx.conf
{
  echo "load_module /usr/lib/nginx/modules/ngx_stream_module.so;"
  sed -E 's/[[:space:]]+resolve;/;/' /etc/nginx/nginx.conf
} > "$conf"
exec nginx -c "$conf" -g 'daemon off;'
