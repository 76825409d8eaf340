#!/usr/bin/env bash
# Seed 000's breaker run against the sample shop: 20 requests a second to /api/recommendations,
# recommendations-api failing from 5 s to 25 s, every answer labelled with the state of the
# shop's breaker when it was sent (BreakerTimelineClient in this module). Twice: with the shipped
# timings (hysteresis 90 s), and with hysteresis 0, where the half-open trials run while the
# dependency is still broken. Loopback only, about 3 minutes; writes the generated section
# 'breaker' of docs/sample-timeline.md.
#
# Usage: benchmarks/breaker-timeline.sh [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib.sh

if [[ ${1:-} != --no-build ]]; then
	package_modules sample-app,benchmarks
fi
JAR=sample-app/target/sample-app.jar
WORK=$(mktemp -d)
PID=""
trap '[[ -n $PID ]] && kill $PID 2>/dev/null; rm -rf "$WORK"' EXIT

LOAD_START=$(cat /proc/loadavg) DATE=$(date -u +%Y-%m-%dT%H:%MZ)
run() { # name max_seconds shop_arguments...
	local name=$1 max=$2 port=""
	shift 2
	java -Xmx512m -jar "$JAR" --server.address=127.0.0.1 --server.port=0 "$@" >"$WORK/$name.log" 2>&1 &
	PID=$!
	for _ in $(seq 1 240); do
		port=$(grep -oE 'Tomcat started on port [0-9]+' "$WORK/$name.log" | grep -oE '[0-9]+$' | head -1 || true)
		[[ -n $port ]] && break
		sleep 0.5
	done
	[[ -n $port ]] || { cat "$WORK/$name.log" >&2; exit 1; }
	java -cp benchmarks/target/benchmarks.jar dev.degradation.benchmarks.BreakerTimelineClient \
		"http://127.0.0.1:$port" /api/recommendations recommendations-api failing 20 5 25 "$max" >"$WORK/$name.md"
	kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
}
run shipped 160
run no-hysteresis 100 --sample.hysteresis-seconds=0

SECTION=$WORK/section.md
{
	echo "Run on $DATE with \`benchmarks/breaker-timeline.sh\`: 20 requests a second to \`/api/recommendations\`, recommendations-api failing (HTTP 500) from 0 s to 20 s, times in seconds from the fault. Load average at the start: $LOAD_START. Each row is a run of answers alike: the state of the shop's breaker for recommendations-api when the request was sent, whether a call was made (\`live\`, \`probe\`: a half-open trial) or the route's fallback answered without one (\`skipped\`), and the answer (\`full\`, \`reduced\`: the marked fallback, \`error\`: the shop's 502)."
	echo
	echo "### The shipped timings (a probe every 5 s, a 30 s window, hysteresis 90 s, breaker defaults)"
	echo
	cat "$WORK/shipped.md"
	echo
	echo "### Hysteresis 0 (\`--sample.hysteresis-seconds=0\`): the trials run while the dependency is still broken"
	echo
	cat "$WORK/no-hysteresis.md"
} >"$SECTION"
replace_section docs/sample-timeline.md breaker "$SECTION"
cat "$SECTION"
