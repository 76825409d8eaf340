#!/usr/bin/env bash
# No false refusal: a healthy service at its CPU's limit under a closed-loop benchmark refuses
# nothing. The sample shop (Spring MVC, platform threads), the same on virtual threads, and the
# reactive catalog (WebFlux), each with the starter and its manifest's adaptive admission, are
# loaded with `wrk -t2 -c16` on their cheapest live route (GET /api/products), on the same two
# cores; nothing is wrong with them, they are only busy. Per model and round it counts what wrk
# got (requests, answers other than 2xx) and what admission says it did (GET
# /actuator/degradation: refused and shed, before and after), and the limit at the end.
# Loopback only, bounded in time (about 4 minutes with the defaults).
#
#   benchmarks/healthy.sh [--no-build] [--seconds N] [--rounds N] [--models "platform virtual webflux"]
#
# Writes benchmarks/results/healthy.tsv and the section 'healthy' of docs/overload.md.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib.sh

BUILD=1
SECONDS_PER_ROUND=30
ROUNDS=2
MODELS=(platform virtual webflux)
while (($#)); do
	case $1 in
		--no-build) BUILD=0 ;;
		--seconds) SECONDS_PER_ROUND=$2; shift ;;
		--rounds) ROUNDS=$2; shift ;;
		--models) read -r -a MODELS <<<"$2"; shift ;;
		*) echo "unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
ensure_command wrk wrk
ensure_command curl curl
if ((BUILD)); then
	package_modules sample-app,sample-reactive
fi
PLATFORM_JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
VIRTUAL_JAVA=
for jdk in "${VIRTUAL_JAVA_HOME:-}" /usr/lib/jvm/*; do
	[[ -n $jdk && -x $jdk/bin/java ]] || continue
	version=$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ { print $2 }')
	if ((${version%%.*} >= 21)); then VIRTUAL_JAVA=$jdk/bin/java; break; fi
done
WORK=$(mktemp -d)
PID=""
trap '[[ -n $PID ]] && kill $PID 2>/dev/null; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM
TSV=benchmarks/results/healthy.tsv
mkdir -p benchmarks/results

start_app() { # name java jar args...
	local name=$1 java=$2 jar=$3 port=""
	shift 3
	"$java" -Xms512m -Xmx512m -XX:+UseG1GC -jar "$jar" --server.address=127.0.0.1 --server.port=0 \
		--degradation.probes.enabled=false "$@" >"$WORK/$name.log" 2>&1 &
	PID=$!
	for _ in $(seq 1 240); do
		port=$(grep -oE '(Tomcat|Netty) started on port [0-9]+' "$WORK/$name.log" | grep -oE '[0-9]+$' | head -1 || true)
		[[ -n $port ]] && break
		kill -0 "$PID" 2>/dev/null || { cat "$WORK/$name.log" >&2; exit 1; }
		sleep 0.5
	done
	[[ -n $port ]] || { echo "$name did not start" >&2; exit 1; }
	PORT=$port
}

admission() { # -> "refused shed limit"
	curl -s -m 5 "http://127.0.0.1:$PORT/actuator/degradation" | python3 -c '
import json, sys
o = json.load(sys.stdin).get("overload") or {}
print(o.get("refused", 0), o.get("shed", 0), o.get("limit", "-"))'
}

echo -e "model\tround\trequests\tnot_2xx\trefused\tshed\tlimit\trequests_per_s" >"$TSV"
LOAD_START=$(load_average)
for model in "${MODELS[@]}"; do
	case $model in
		platform) start_app "$model" "$PLATFORM_JAVA" sample-app/target/sample-app.jar ;;
		virtual)
			[[ -n $VIRTUAL_JAVA ]] || { echo "no JDK 21+ for virtual threads" >&2; exit 1; }
			start_app "$model" "$VIRTUAL_JAVA" sample-app/target/sample-app.jar --spring.threads.virtual.enabled=true ;;
		webflux) start_app "$model" "$PLATFORM_JAVA" sample-reactive/target/sample-reactive.jar ;;
	esac
	url=http://127.0.0.1:$PORT/api/products
	wrk -t2 -c16 -d10s "$url" >/dev/null
	for round in $(seq 1 "$ROUNDS"); do
		read -r refused_before shed_before _ < <(admission)
		result=$(wrk -t2 -c16 -d"${SECONDS_PER_ROUND}s" --timeout 5s -s benchmarks/wrk-report.lua "$url" | awk '/^RESULT/ { print $2, $6, $7 }')
		read -r rate requests not_2xx <<<"$result"
		read -r refused_after shed_after limit < <(admission)
		echo -e "$model\t$round\t$requests\t$not_2xx\t$((refused_after - refused_before))\t$((shed_after - shed_before))\t$limit\t$rate" >>"$TSV"
		echo "$model round $round: $requests requests ($rate/s), $not_2xx not 2xx, admission refused $((refused_after - refused_before)), limit $limit" >&2
	done
	kill "$PID"; wait "$PID" 2>/dev/null || true; PID=""
done
LOAD_END=$(load_average)

TABLE=$WORK/table.md
{
	echo "Run on $(date -u +%Y-%m-%d) at $(git rev-parse --short HEAD) with \`benchmarks/healthy.sh\`: \`wrk -t2 -c16 -d${SECONDS_PER_ROUND}s\` on GET /api/products, $ROUNDS rounds a model after a 10 s warm-up, the starter's adaptive admission on. Load average at the start: $LOAD_START; at the end: $LOAD_END."
	echo
	echo "| model | requests | answers not 2xx | refused by admission | share refused | requests / s | limit at the end |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
	awk -F'\t' 'NR > 1 { r[$1] += $3; n[$1] += $4; f[$1] += $5; s[$1] += $8; c[$1]++; l[$1] = $7; if (!($1 in seen)) { seen[$1] = 1; order[++m] = $1 } }
		END { for (i = 1; i <= m; i++) { k = order[i]
			printf "| %s | %d | %d | %d | %.4f %% | %.0f | %s |\n", k, r[k], n[k], f[k], 100 * f[k] / r[k], s[k] / c[k], l[k] } }' "$TSV"
} >"$TABLE"
replace_section docs/overload.md healthy "$TABLE"
cat "$TABLE"
