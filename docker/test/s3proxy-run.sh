#!/bin/sh
# /opt/s3proxy/run-docker-container.sh of docker/test/s3proxy.Dockerfile: S3Proxy configured from the environment
# variables andrewgaul/s3proxy reads (those docker/compose.yaml sets), in the foreground.
set -eu
props=/tmp/s3proxy.properties
cat > "$props" <<PROPS
s3proxy.endpoint=${S3PROXY_ENDPOINT:-http://0.0.0.0:80}
s3proxy.authorization=${S3PROXY_AUTHORIZATION:-aws-v2-or-v4}
s3proxy.identity=${S3PROXY_IDENTITY:-local-identity}
s3proxy.credential=${S3PROXY_CREDENTIAL:-local-credential}
jclouds.provider=${JCLOUDS_PROVIDER:-filesystem}
jclouds.identity=unused
jclouds.credential=unused
jclouds.filesystem.basedir=${JCLOUDS_FILESYSTEM_BASEDIR:-/data}
PROPS
exec java ${S3PROXY_JAVA_OPTS:--Xmx256m -XX:TieredStopAtLevel=1 -XX:+UseSerialGC} -jar /opt/s3proxy/s3proxy.jar \
  --properties "$props"
