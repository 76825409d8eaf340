#!/usr/bin/env bash
# A/A check of the load measurement: the same configuration (starter on) started twice and
# measured the way load.sh measures two configurations; the ratio of the two identical instances
# shows how small a difference the machine can resolve. Loopback only, about 3 minutes.
# Usage: benchmarks/aa-check.sh (after load.sh or run-all.sh has built the sample jar)
set -euo pipefail
cd "$(dirname "$0")/.."
JAR=sample-app/target/sample-app.jar
W=$(mktemp -d); PIDS=()
trap 'for p in "${PIDS[@]}"; do kill $p 2>/dev/null || true; done; wait; rm -rf $W' EXIT
start() { java -Xms256m -Xmx256m -jar $JAR --server.address=127.0.0.1 --server.port=0 --degradation.probes.enabled=false >$W/$1.log 2>&1 & PIDS+=($!)
  for _ in $(seq 1 240); do p=$(grep -oE 'Tomcat started on port [0-9]+' $W/$1.log | grep -oE '[0-9]+$' || true); [[ -n $p ]] && break; sleep 0.5; done; echo $p; }
A=$(start a); B=$(start b)
m() { wrk -t2 -c32 -d$2s --timeout 5s -s benchmarks/wrk-report.lua http://127.0.0.1:$1/api/products | awk '/^RESULT/ {print $2}'; }
for _ in 1 2; do m $A 15 >/dev/null; m $B 15 >/dev/null; done
for r in $(seq 1 10); do if ((r % 2)); then echo "$r a $(m $A 5)"; echo "$r b $(m $B 5)"; else echo "$r b $(m $B 5)"; echo "$r a $(m $A 5)"; fi; done
