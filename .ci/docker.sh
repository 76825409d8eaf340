#!/usr/bin/env bash
# Installs Docker's engine if absent and starts it loopback-only if it does not answer, for the
# container test suite (./mvnw verify -Pcontainers). Debian 12, run as root.
#
# The daemon gets no bridge, no iptables/NAT rules and no forwarding: containers run either on the
# host network (bound to 127.0.0.1) or with only their own loopback, so test traffic never leaves
# this machine. Images are built locally FROM scratch by the tests; nothing is pulled.
set -euo pipefail
# dockerd lives in /usr/sbin: a bare environment (env -i PATH=/usr/bin:/bin) would not find it.
export PATH="$PATH:/usr/sbin:/sbin"

if ! command -v dockerd >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io >/dev/null
fi

if ! docker info >/dev/null 2>&1; then
  # --bridge=none deletes an existing docker0 link: never start this next to another dockerd.
  nohup dockerd \
    --bridge=none --iptables=false --ip6tables=false --ip-forward=false --ip-masq=false \
    --userland-proxy=false --storage-driver=overlay2 \
    >/tmp/dockerd.log 2>&1 &
  if ! timeout 60 sh -c 'until docker info >/dev/null 2>&1; do sleep 0.1; done'; then
    echo "the Docker engine did not answer within 60 s; /tmp/dockerd.log says:" >&2
    tail -20 /tmp/dockerd.log >&2
    exit 1
  fi
fi

docker version --format 'docker server {{.Server.Version}}, API {{.Server.APIVersion}}'
