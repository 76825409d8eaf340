#!/usr/bin/env bash
# The overload harness: seed 000's test as a script anyone runs, on this machine, loopback only,
# bounded in time (about 5 minutes), stopping its applications on exit.
#
# The shop's checkout holds its one connection to a "database" for 20 ms (sample-app's
# CapacityController): about 50 answers a second of capacity, whatever it is offered. Requests
# arrive at a fixed rate (an open loop: users do not wait for each other), each with a 1 s client
# deadline, sent to the server in x-envoy-expected-rq-timeout-ms (OverloadClient in this module).
# For each configuration and each offered load the harness records the client's view (useful
# answers, fallbacks, fast refusals, timeouts, latency percentiles) beside the server's view
# (checkouts the server completed during the run, requests it is still working on right after the
# load and 5 s later, from the shop's GET /demo/capacity).
#
# Configurations, one JVM each, side by side in the same run:
#   starter    the starter with the manifest's overload section (adaptive limit, nothing tuned)
#   bulkhead   the starter off; a Resilience4j Bulkhead of 4 concurrent calls, no wait, as a filter
#   gradient2  the starter off; Netflix concurrency-limits' Gradient2 at its defaults, as a filter
#   none       the starter off and no admission at all: what the seed measured without a limit
# Loads: 0.5x, 2x and 10x capacity on the core route; 10x with half of it on the degradable
# /api/checkout/suggestions (a best-effort route sharing the same connection).
#
# Usage: benchmarks/overload.sh [--no-build] [--seconds N]  (OVERLOAD_SECONDS, default 10)
# Writes benchmarks/results/overload.tsv and the generated section of docs/overload.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib.sh

BUILD=1
RUN_SECONDS=${OVERLOAD_SECONDS:-10}
while (($#)); do
	case $1 in
		--no-build) BUILD=0 ;;
		--seconds) RUN_SECONDS=$2; shift ;;
		*) echo "unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
CAPACITY=50
DEADLINE_MS=1000
CORE=/api/checkout
DEGRADABLE=/api/checkout/suggestions
CONFIGS=(starter bulkhead gradient2 none)
LOADS=("0.5 0" "2 0" "10 0" "10 0.5")
JVM_FLAGS=(-Xms512m -Xmx512m -XX:+UseG1GC)

ensure_command curl curl
if ((BUILD)); then
	./mvnw -q -B -ntp -pl sample-app,benchmarks -am package -DskipTests
fi
JAR=sample-app/target/sample-app.jar
CLIENT=(java -Xms256m -Xmx256m -cp benchmarks/target/benchmarks.jar dev.degradation.benchmarks.OverloadClient)
RESULTS=benchmarks/results
mkdir -p "$RESULTS"
WORK=$(mktemp -d)
PID=""
trap '[[ -n $PID ]] && kill $PID 2>/dev/null; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

start_app() { # name args...
	local name=$1 port=""
	shift
	java "${JVM_FLAGS[@]}" -jar "$JAR" --server.address=127.0.0.1 --server.port=0 \
		--degradation.probes.enabled=false "$@" >"$WORK/$name.log" 2>&1 &
	PID=$!
	for _ in $(seq 1 240); do
		port=$(grep -oE 'Tomcat started on port [0-9]+' "$WORK/$name.log" | grep -oE '[0-9]+$' | head -1 || true)
		[[ -n $port ]] && break
		kill -0 "$PID" 2>/dev/null || { cat "$WORK/$name.log" >&2; echo "$name did not start" >&2; exit 1; }
		sleep 0.5
	done
	[[ -n $port ]] || { echo "$name did not start within 120 s" >&2; exit 1; }
	PORT=$port
	echo "$name: 127.0.0.1:$port" >&2
}

stop_app() {
	kill "$PID" 2>/dev/null || true
	wait "$PID" 2>/dev/null || true
	PID=""
}

capacity() { # field: completed or working
	local answer
	for _ in $(seq 1 50); do
		answer=$(curl -s -m 5 "http://127.0.0.1:$PORT/demo/capacity" | grep -oE "\"$1\":[0-9]+" | grep -oE '[0-9]+$' || true)
		[[ -n $answer ]] && { echo "$answer"; return; }
		sleep 0.1
	done
	echo "the shop's /demo/capacity did not answer" >&2
	exit 1
}

TSV=$RESULTS/overload.tsv
echo -e "config\tload\tdegradable_share\tpath\tsent\tlive\tfallback\trefused\ttimeouts\terrors\tlive_p50\tlive_p99\tfallback_p50\tfallback_p99\trefused_p50\trefused_p99\tserver_completed\tworking_after\tworking_5s_after" >"$TSV"
LOAD_START=$(cat /proc/loadavg) LOAD_DATE=$(date -u +%Y-%m-%dT%H:%MZ)
for config in "${CONFIGS[@]}"; do
	case $config in
		starter) start_app "$config" ;;
		none) start_app "$config" --degradation.enabled=false ;;
		*) start_app "$config" --degradation.enabled=false --sample.peer="$config" ;;
	esac
	# Warm-up at half the capacity, so that every configuration is measured compiled.
	"${CLIENT[@]}" "http://127.0.0.1:$PORT" 25 5 "$DEADLINE_MS" "$CORE" "$DEGRADABLE" 0.5 >/dev/null
	for load in "${LOADS[@]}"; do
		read -r multiple share <<<"$load"
		rate=$(awk -v m="$multiple" -v c="$CAPACITY" 'BEGIN { print m * c }')
		before=$(capacity completed)
		"${CLIENT[@]}" "http://127.0.0.1:$PORT" "$rate" "$RUN_SECONDS" "$DEADLINE_MS" "$CORE" "$DEGRADABLE" "$share" \
			>"$WORK/run.tsv"
		working_after=$(capacity working)
		completed=$(($(capacity completed) - before))
		sleep 5
		working_later=$(capacity working)
		while IFS=$'\t' read -r path rest; do
			[[ $share == 0 && $path == "$DEGRADABLE" ]] && continue
			echo -e "$config\t${multiple}x\t$share\t$path\t$rest\t$completed\t$working_after\t$working_later" >>"$TSV"
		done <"$WORK/run.tsv"
		echo "$config ${multiple}x share $share: $(tr '\n' ' ' <"$WORK/run.tsv")| completed $completed, working $working_after, 5 s later $working_later" >&2
	done
	stop_app
done
LOAD_END=$(cat /proc/loadavg)

# The table for docs/overload.md.
TABLE=$WORK/table.md
{
	echo "Run on $LOAD_DATE with \`benchmarks/overload.sh\` ($RUN_SECONDS s a load, a ${DEADLINE_MS} ms client deadline, capacity $CAPACITY answers/s: one connection held 20 ms a request). Load average at the start: $LOAD_START; at the end: $LOAD_END."
	echo
	echo "| configuration | offered | path | sent | useful (live 2xx) | useful / capacity | fallbacks | fast refusals (503) | client timeouts | live p50 / p99 ms | fallback p99 ms | refusal p99 ms | server completed | still working after / 5 s later |"
	echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
	awk -F'\t' -v capacity="$CAPACITY" -v seconds="$RUN_SECONDS" 'NR > 1 {
		offered = $2 ((($3 + 0) > 0) ? " (half degradable)" : "")
		useful = sprintf("%.0f %%", 100 * $6 / (capacity * seconds))
		printf "| %s | %s | `%s` | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s | %s / %s |\n", $1, offered, $4, $5, $6, useful, $7, $8, $9, $11, $12, $14, $16, $17, $18, $19
	}' "$TSV"
} >"$TABLE"
replace_section docs/overload.md results "$TABLE"
cat "$TABLE"
