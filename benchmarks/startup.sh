#!/usr/bin/env bash
# The starter's own cost at startup: the MVC application shape (application-shapes/mvc, a 2-route
# Spring MVC application with Actuator) started with the starter and, from the same classes,
# without it (the class path less the starter and what only the starter brings). Each round starts
# both, in alternating order, each in a fresh JVM; per start it records
#   - the time from the JVM's launch to the first 200 of a route (polled every 5 ms),
#   - the classes loaded by then (the JVM's own counter, less unloaded ones),
#   - the heap in use after a full collection.
# The poll runs inside this shell, with no process started per attempt: bash's /dev/tcp connects
# and asks, and bash's read waits the 5 ms. A fresh curl (and sleep) per attempt cost about 25 ms of
# CPU each, about 85 % of one core all through the start on a 2-core machine: it stole CPU from
# the very start it measured, so every start took longer, and with it the starter's share. The
# request is still a whole HTTP/1.1 GET of the route, answered only once the application serves it.
# Writes benchmarks/results/startup.tsv and the section 'startup' of docs/performance.md.
#
#   benchmarks/startup.sh [--rounds N]     (default 12 rounds, about 2 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib.sh

rounds=12
while (($#)); do
	case $1 in
		--rounds) rounds=$2; shift 2 ;;
		*) echo "usage: $0 [--rounds N]" >&2; exit 2 ;;
	esac
done

java=${JAVA:-java}
results=benchmarks/results
tsv=$results/startup.tsv
mkdir -p "$results"

echo "building application-shapes/mvc" >&2
./mvnw -q -B -ntp -pl application-shapes/mvc -am package dependency:build-classpath -DskipTests \
	-Dmdep.outputFile=target/startup.cp -DincludeScope=runtime >/dev/null
classes=application-shapes/mvc/target/classes
with_cp=$classes:$(cat application-shapes/mvc/target/startup.cp)
# Without the starter: its own modules and the libraries only it brings.
without_cp=$classes:$(tr ':' '\n' <application-shapes/mvc/target/startup.cp \
	| grep -Ev '/degradation-(autoconfigure|spring-boot-starter)|/resilience4j|/concurrency-limits|/jackson-dataformat-yaml' \
	| paste -sd:)
grep -q degradation-autoconfigure <<<"$with_cp" || { echo "the starter is not on the class path 'with'" >&2; exit 1; }
! grep -q degradation-autoconfigure <<<"$without_cp" || { echo "the starter is still on the class path 'without'" >&2; exit 1; }

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# Asks for the route every 5 ms (at most 6000 times) until it answers 200 or the process ends;
# prints the last status (000: no answer). Nothing here starts a process: see the header.
first_answer() { # port pid
	local port=$1 pid=$2 tick conn line code=000 attempt
	exec {tick}<> <(:)
	for ((attempt = 0; attempt < 6000; attempt++)); do
		if { exec {conn}<>"/dev/tcp/127.0.0.1/$port"; } 2>/dev/null; then
			printf 'GET /api/annotated HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' >&"$conn"
			line=
			read -r -t 10 -u "$conn" line || true
			exec {conn}>&-
			code=${line#HTTP/1.1 }
			code=${code%% *}
			code=${code%$'\r'}
			[ "$code" = 200 ] && break
		fi
		kill -0 "$pid" 2>/dev/null || break
		# Nothing ever writes to this pipe: the read only waits.
		read -r -t 0.005 -u "$tick" || true
	done
	exec {tick}>&-
	echo "${code:-000}"
}

# One start: prints "millis-to-first-200 loaded-classes heap-used-KiB".
start_once() { # class_path port
	local cp=$1 port=$2 log pid began answered code loaded unloaded heap
	log=$(mktemp)
	began=$(now_ms)
	"$java" -cp "$cp" dev.degradation.shapes.mvc.MvcShapeApplication --server.port="$port" \
		--logging.level.root=WARN >"$log" 2>&1 &
	pid=$!
	code=$(first_answer "$port" "$pid")
	answered=$(now_ms)
	if [ "$code" != 200 ]; then
		kill "$pid" 2>/dev/null || true
		echo "the application did not answer on port $port:" >&2
		cat "$log" >&2
		exit 1
	fi
	loaded=$(jcmd "$pid" PerfCounter.print | awk -F= '$1 == "java.cls.loadedClasses" { print $2 }')
	unloaded=$(jcmd "$pid" PerfCounter.print | awk -F= '$1 == "java.cls.unloadedClasses" { print $2 }')
	jcmd "$pid" GC.run >/dev/null
	heap=$(jcmd "$pid" GC.heap_info | awk '/used/ { for (i = 1; i <= NF; i++) if ($i == "used") { sub("K,?", "", $(i + 1)); print $(i + 1); exit } }')
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	rm -f "$log"
	echo "$((answered - began)) $((loaded - unloaded)) $heap"
}

wait_for_quiet_machine 120
loadavg_before=$(load_average)
: >"$tsv"
# Below the ephemeral range (32768 and up on Linux), where the client side of other work's
# connections may hold the port a start would listen on.
port=$((20000 + RANDOM % 10000))
for round in $(seq 1 "$rounds"); do
	if ((round % 2)); then order="with without"; else order="without with"; fi
	for label in $order; do
		port=$((port + 1))
		if [ "$label" = with ]; then cp=$with_cp; else cp=$without_cp; fi
		read -r millis loaded heap < <(start_once "$cp" "$port")
		printf '%s\t%s\t%s\t%s\t%s\n' "$round" "$label" "$millis" "$loaded" "$heap" >>"$tsv"
		echo "round $round $label: first answer after $millis ms, $loaded classes, heap $heap KiB" >&2
	done
done
loadavg_after=$(load_average)

# Per measure (column 3, 4 or 5): median with, median without, and the paired differences
# (with - without): median, mean and the 95 % t-interval of the mean.
summary() { # column
	awk -v col="$1" "$RATIO_AWK"'
		{ v[$1, $2] = $col; r[$1] = 1 }
		END {
			for (k in r) if (((k, "with") in v) && ((k, "without") in v)) {
				n++; w[n] = v[k, "with"]; o[n] = v[k, "without"]; d[n] = w[n] - o[n]; sum += d[n]
				q[n] = w[n] / o[n]; qs += q[n]
			}
			mean = sum / n; qm = qs / n
			printf "%s %s %s %.1f %.1f %.1f %.4f %.4f %.4f\n", med(w, n), med(o, n), med(d, n), mean,
				mean - half_width(d, n, mean), mean + half_width(d, n, mean), qm, qm - half_width(q, n, qm), qm + half_width(q, n, qm)
		}
		function med(x, n,   y, i, j, t) {
			for (i = 1; i <= n; i++) y[i] = x[i]
			for (i = 2; i <= n; i++) { t = y[i]; for (j = i - 1; j >= 1 && y[j] > t; j--) y[j + 1] = y[j]; y[j + 1] = t }
			return (n % 2) ? y[(n + 1) / 2] : (y[n / 2] + y[n / 2 + 1]) / 2
		}' "$tsv"
}

table=$(mktemp)
{
	echo "Measured by \`benchmarks/startup.sh\` on $(date -u +%Y-%m-%d) at $(git rev-parse --short HEAD),"
	echo "$rounds rounds, $("$java" -version 2>&1 | head -1 | tr -d '"'), load average $loadavg_before before and $loadavg_after after."
	echo "Medians of the starts with and without the starter; the difference is with less without,"
	echo "paired by round (median, and the mean with its 95 % interval); the ratio is with / without."
	echo
	echo "| measure | with | without | difference, median | difference, mean (95 % interval) | ratio, mean (95 % interval) |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: |"
	for measure in "3|time to the first answer (ms)" "4|classes loaded" "5|heap after a full GC (KiB)"; do
		read -r w o dm mean low high qm qlow qhigh < <(summary "${measure%%|*}")
		printf '| %s | %s | %s | %s | %s (%s to %s) | %.3f (%.3f to %.3f) |\n' "${measure#*|}" "$w" "$o" "$dm" \
			"$mean" "$low" "$high" "$qm" "$qlow" "$qhigh"
	done
} >"$table"
replace_section docs/performance.md startup "$table"
cat "$table"
rm -f "$table"
