#!/usr/bin/env bash
# What a caller of the sample shop's /api/recommendations sees when recommendations-api breaks
# under its traffic, with the sample's shipped timings (a probe every 5 s, a 30 s window, a 2 s
# timeout) and the starter's guard on the shop's own calls: 20 requests a second, the dependency
# switched to a fault after 5 s through the shop's demo API (FaultTimelineClient in this module).
# Loopback only, about 2 minutes; writes the generated section of docs/sample-timeline.md.
#
# Usage: benchmarks/fault-timeline.sh [--no-build]
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

ROWS=$WORK/rows.md
LOAD_START=$(cat /proc/loadavg) DATE=$(date -u +%Y-%m-%dT%H:%MZ)
for mode in failing hanging refusing slow; do
	java -Xmx512m -jar "$JAR" --server.address=127.0.0.1 --server.port=0 >"$WORK/$mode.log" 2>&1 &
	PID=$!
	port=""
	for _ in $(seq 1 240); do
		port=$(grep -oE 'Tomcat started on port [0-9]+' "$WORK/$mode.log" | grep -oE '[0-9]+$' | head -1 || true)
		[[ -n $port ]] && break
		sleep 0.5
	done
	[[ -n $port ]] || { cat "$WORK/$mode.log" >&2; exit 1; }
	line=$(java -cp benchmarks/target/benchmarks.jar dev.degradation.benchmarks.FaultTimelineClient \
		"http://127.0.0.1:$port" /api/recommendations recommendations-api "$mode" 20 20 5)
	IFS=$'\t' read -r _ _ _ live errors fallbacks first slowest reasons <<<"$line"
	echo "| $mode | $first | $errors | $fallbacks | $live | $slowest | $reasons |" >>"$ROWS"
	echo "$mode: $line" >&2
	kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
done
TABLE=$WORK/table.md
{
	echo "Run on $DATE with \`benchmarks/fault-timeline.sh\`: 20 requests a second to \`/api/recommendations\` for 20 s, recommendations-api broken after 5 s; the sample's shipped timings, its calls guarded (a breaker per dependency and the 2 s time limit of its \`timeout_ms\`). Load average at the start: $LOAD_START. Counted from the moment of the fault."
	echo
	echo "| fault | first fallback (s) | error answers | fallbacks | live answers | slowest answer (s) | fallbacks by reason |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	cat "$ROWS"
} >"$TABLE"
replace_section docs/sample-timeline.md guards "$TABLE"
cat "$TABLE"
