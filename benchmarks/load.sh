#!/usr/bin/env bash
# Load test of the sample shop on this machine, loopback only, bounded in time (about 7 minutes
# with the defaults), stopping its applications on exit.
#
#   1. Throughput of a trivial core endpoint (GET /api/products) with the starter on and every tier
#      live, against the same application with --degradation.enabled=false: both applications run
#      side by side, the runs alternate, and the ratio of the mean throughputs is reported.
#   2. A shed route answered from its static fallback (GET /api/recommendations at level 2, set
#      through POST /actuator/degradation) against the cheapest live route of the same application
#      at the same level (the faster of GET /api/products and GET /api/products/p-1), alternated
#      the same way.
#
# Prints the tables and writes them into the generated sections of docs/performance.md.
#
# Usage: benchmarks/load.sh [--no-build] [--rounds N] [--duration SECONDS] [--warmup SECONDS] [--doc FILE]
# Needs wrk; when it is missing the script runs: apt-get install -y wrk
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib.sh

BUILD=1 ROUNDS=10 DURATION=5 WARMUP=15 THREADS=2 CONNECTIONS=32 DOC=docs/performance.md
while (($#)); do
	case $1 in
	--no-build) BUILD=0 ;;
	--rounds) ROUNDS=$2; shift ;;
	--duration) DURATION=$2; shift ;;
	--warmup) WARMUP=$2; shift ;;
	--doc) DOC=$2; shift ;;
	*) echo "unknown argument: $1" >&2; exit 2 ;;
	esac
	shift
done

ensure_command wrk wrk
ensure_command curl curl
if ((BUILD)); then
	./mvnw -q -B -pl sample-app -am package -DskipTests
fi
JAR=sample-app/target/sample-app.jar
RESULTS=benchmarks/results
mkdir -p "$RESULTS"
WORK=$(mktemp -d)
PIDS=()

stop_apps() {
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$WORK"
}
trap stop_apps EXIT
trap 'exit 130' INT TERM

# start_app NAME ARGS...: starts the shop on a free loopback port and sets PORT_<NAME>.
start_app() {
	local name=$1 port="" pid
	shift
	java -Xms256m -Xmx256m -jar "$JAR" --server.address=127.0.0.1 --server.port=0 \
		--degradation.probes.enabled=false "$@" >"$WORK/$name.log" 2>&1 &
	pid=$!
	PIDS+=("$pid")
	for _ in $(seq 1 240); do
		port=$(grep -oE 'Tomcat started on port [0-9]+' "$WORK/$name.log" | grep -oE '[0-9]+$' | head -1 || true)
		[[ -n $port ]] && break
		kill -0 "$pid" 2>/dev/null || { cat "$WORK/$name.log" >&2; echo "$name did not start" >&2; exit 1; }
		sleep 0.5
	done
	[[ -n $port ]] || { echo "$name did not start within 120 s" >&2; exit 1; }
	printf -v "PORT_$name" '%s' "$port"
	echo "$name: 127.0.0.1:$port ($*)" >&2
}

# measure URL SECONDS: prints "requests/s p50 p90 p99 requests errors".
measure() {
	wrk -t"$THREADS" -c"$CONNECTIONS" -d"$2"s --timeout 5s -s benchmarks/wrk-report.lua "$1" \
		| awk '/^RESULT/ { print $2, $3, $4, $5, $6, $7 }'
}

expect() { # description command...
	local description=$1
	shift
	"$@" >/dev/null || { echo "check failed: $description" >&2; exit 1; }
}

# alternate SECTION LABEL_A URL_A LABEL_B URL_B: ROUNDS rounds of both, the order swapped every
# round so that a drift of the machine hits both alike; appends to $RESULTS/load.tsv.
alternate() {
	local section=$1 round order
	for ((round = 1; round <= ROUNDS; round++)); do
		if ((round % 2)); then order=("$2" "$3" "$4" "$5"); else order=("$4" "$5" "$2" "$3"); fi
		for i in 0 2; do
			local result
			result=$(measure "${order[$((i + 1))]}" "$DURATION")
			echo "$section $round ${order[$i]} $result" | tee -a "$RESULTS/load.tsv" >&2
		done
	done
}

# table SECTION LABEL_A LABEL_B: a Markdown table of the rounds and the ratio of mean throughputs.
table() {
	awk -v section="$1" -v a="$2" -v b="$3" '
		$1 == section { rows[++n] = $0; rps[$3] += $4; count[$3]++; errors[$3] += $9
			p50[$3] += $5; p90[$3] += $6; p99[$3] += $7 }
		END {
			print "| round | configuration | requests/s | p50 ms | p90 ms | p99 ms | errors |"
			print "| ---: | --- | ---: | ---: | ---: | ---: | ---: |"
			for (i = 1; i <= n; i++) { split(rows[i], f, " ")
				printf "| %d | %s | %.0f | %.2f | %.2f | %.2f | %d |\n", f[2], f[3], f[4], f[5], f[6], f[7], f[9] }
			for (k = 0; k < 2; k++) { c = (k == 0) ? a : b
				printf "| mean | **%s** | **%.0f** | %.2f | %.2f | %.2f | %d |\n", c, rps[c] / count[c],
					p50[c] / count[c], p90[c] / count[c], p99[c] / count[c], errors[c] }
			printf "\n**Ratio %s / %s: %.3f** (mean requests/s over %d rounds each).\n", a, b,
				(rps[a] / count[a]) / (rps[b] / count[b]), count[a]
		}' "$RESULTS/load.tsv"
}

: >"$RESULTS/load.tsv"
start_app on
start_app off --degradation.enabled=false
ON=http://127.0.0.1:$PORT_on
OFF=http://127.0.0.1:$PORT_off

expect "/api/products answers with the starter on, level 0" \
	bash -c "curl -sfi '$ON/api/products' | grep -qi '^x-degradation-level: 0'"
expect "/api/products answers without the starter's header when it is disabled" \
	bash -c "curl -sfi '$OFF/api/products' >'$WORK/off.txt' && ! grep -qi '^x-degradation-level' '$WORK/off.txt'"

echo "warming up both, twice $WARMUP s each, alternating" >&2
for _ in 1 2; do
	measure "$ON/api/products" "$WARMUP" >/dev/null
	measure "$OFF/api/products" "$WARMUP" >/dev/null
done
alternate overhead starter-on "$ON/api/products" starter-off "$OFF/api/products"

curl -sf -X POST -H 'Content-Type: application/json' -d '{"enabled": true, "level": 2}' \
	"$ON/actuator/degradation" >/dev/null
expect "/api/recommendations answers from its static fallback at level 2" \
	bash -c "curl -sfi '$ON/api/recommendations' | grep -qi '^x-degraded: true'"
expect "/api/products stays live at level 2" \
	bash -c "curl -sfi '$ON/api/products' | grep -qi '^x-degradation-level: 2'"

echo "warming up the level-2 routes and picking the cheapest live one" >&2
measure "$ON/api/recommendations" "$WARMUP" >/dev/null
best="" best_rps=0
for candidate in /api/products /api/products/p-1; do
	measure "$ON$candidate" "$WARMUP" >/dev/null
	rps=$(measure "$ON$candidate" "$DURATION" | cut -d' ' -f1)
	echo "live candidate $candidate: $rps requests/s" >&2
	if awk -v r="$rps" -v b="$best_rps" 'BEGIN { exit !(r > b) }'; then best=$candidate best_rps=$rps; fi
done
echo "cheapest live route: GET $best" >&2
alternate fallback "static-fallback" "$ON/api/recommendations" "live:$best" "$ON$best"

{
	echo "Both applications: \`java -Xms256m -Xmx256m -jar sample-app.jar --server.address=127.0.0.1 --server.port=0 --degradation.probes.enabled=false\`, the second one with \`--degradation.enabled=false\`. Load: \`wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s\` on the same machine, $ROUNDS rounds per configuration, alternating, after a warm-up of twice ${WARMUP} s each, alternating."
	echo
	echo "\`GET /api/products\` at level 0 (every tier live):"
	echo
	table overhead starter-on starter-off
} >"$RESULTS/load-overhead.md"
{
	echo "Same starter-on application at level 2 (\`POST /actuator/degradation {\"enabled\":true,\"level\":2}\`): \`GET /api/recommendations\` answered by its static fallback against the cheapest live route at that level, \`GET $best\` (the faster of \`/api/products\` and \`/api/products/p-1\` in a ${DURATION} s trial)."
	echo
	table fallback "static-fallback" "live:$best"
} >"$RESULTS/load-fallback.md"
cat "$RESULTS/load-overhead.md" "$RESULTS/load-fallback.md"
if [[ -f $DOC ]]; then
	replace_section "$DOC" load-overhead "$RESULTS/load-overhead.md"
	replace_section "$DOC" load-fallback "$RESULTS/load-fallback.md"
	echo "wrote the load tables into $DOC" >&2
fi
