#!/usr/bin/env bash
# The overload harness: seed 000's test as a script anyone runs, on this machine, loopback only,
# bounded in time (about 25 minutes), stopping its applications on exit.
#
# The shop's checkout holds its one connection to a "database" for 20 ms (sample-app's
# CapacityController): about 50 answers a second of capacity, whatever it is offered. Every request
# carries a 1 s client deadline, sent to the server in x-envoy-expected-rq-timeout-ms. The load
# (OverloadClient in this module, a raw HTTP/1.1 client that costs a few system calls a request)
# records the client's view (useful answers, fallbacks, fast refusals, timeouts, latency
# percentiles) beside the server's own (checkouts it completed, from the shop's GET /demo/capacity)
# and the CPU time of both processes.
#
# Scenarios, 10 s each (OVERLOAD_SECONDS), after a discarded warm-up:
#   open 0.5x .. 50x   requests arrive at a fixed rate on the core route (an open loop)
#   retry storm        200 clients on the core route that send their next request the moment they
#                      have an answer, a refusal included (seed 000's 200 retrying connections)
#   core and flood     100 such clients on the core route and 100 on the degradable route at once:
#                      the core overloaded itself while a degradable route floods (seed 000)
#   flood 12x          the core offered 0.8x while the degradable route is offered 12x
#   flood cpu          the core offered 0.8x while 200 clients flood the degradable route as fast
#                      as it answers (the CPU's limit)
#   step               the core offered 0.5x, then 10x from halfway
# Configurations, one JVM each, side by side in the same run:
#   starter      the starter with the manifest's overload section (adaptive limit, nothing tuned)
#   starter-429  the same, refusing with 429, which Tomcat answers without closing the connection
#   starter-at-once  the same, every refusal written at once (degradation.overload.refusal-turns=never);
#                the harness's clients all come from 127.0.0.1 and retry at once, so 'starter' gives
#                every refusal after the first of each second its turn
#   bulkhead     the starter off; a Resilience4j Bulkhead of 4 concurrent calls, no wait, as a filter
#   gradient2    the starter off; Netflix concurrency-limits' Gradient2 at its defaults, as a filter
#   floor        the starter off; a filter that answers every request 503 at once and admits
#                nothing: the machine's floor under the same load (no refusal is written faster,
#                and no admitted answer comes sooner than that plus its service time); not in the
#                default set, run it by name beside the others
# Clients, each scenario run by both in turn against the same JVM, on the same cores as the service:
#   raw          OverloadClient (this module): a raw HTTP/1.1 client on virtual threads, a few system
#                calls a request; its open loops are true open loops
#   autocannon   autocannon (Node, installed by this script with npm into benchmarks/target/node),
#                the load generator users run (benchmarks/autocannon-client.js); its open loops are
#                40 autocannon instances with overallRate started 25 ms apart (one alone sends each
#                second's requests as a burst at its start); it has no stepped rate, so it skips
#                the step scenario
# Models: Spring MVC on platform threads on $JAVA_HOME (or the java on the PATH); Spring MVC on
# virtual threads (spring.threads.virtual.enabled) on $VIRTUAL_JAVA_HOME (by default a JDK 21+
# under /usr/lib/jvm); WebFlux (sample-reactive, whose checkout is the reactive twin of the
# shop's: the same one connection held 20 ms, by a timer) on $JAVA_HOME.
#
# Usage: benchmarks/overload.sh [--no-build] [--seconds N] [--configs "a b"]
#                               [--models "platform virtual webflux"] [--scenarios REGEX]
#                               [--clients "raw autocannon"] [--connections N] [--table-only]
#                               [--name NAME]
# (--connections gives the checkout a pool of N connections, N times the capacity; 1 by default.)
# (--table-only writes the tables again from benchmarks/results/overload.tsv, with the same options.)
# (--name NAME writes overload-NAME.tsv and the section 'results-NAME' instead, so that a run of a
# few scenarios or configurations leaves the whole table of the last full run as it is.)
# (OVERLOAD_TRACE=1 also prints the starter's limit and requests in flight every 250 ms of each of
# its scenarios; the polling costs the server a few requests a second, so tables run without it.)
# (--threads is the older name of --models; --scenarios keeps the scenarios whose name matches.)
# Writes benchmarks/results/overload.tsv and the generated section 'results' of docs/overload.md
# (with --connections N: overload-pool-N.tsv and the section 'results-pool-N').
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib.sh

BUILD=1
TABLE_ONLY=0
RUN_SECONDS=${OVERLOAD_SECONDS:-10}
CONFIGS=(starter starter-429 bulkhead gradient2)
THREADS=(platform virtual webflux)
CLIENTS=(raw autocannon)
CONNECTIONS=1
SCENARIO_FILTER=
RUN_NAME=
while (($#)); do
	case $1 in
		--no-build) BUILD=0 ;;
		--seconds) RUN_SECONDS=$2; shift ;;
		--configs) read -r -a CONFIGS <<<"$2"; shift ;;
		--threads | --models) read -r -a THREADS <<<"$2"; shift ;;
		--scenarios) SCENARIO_FILTER=$2; shift ;;
		--clients) read -r -a CLIENTS <<<"$2"; shift ;;
		--connections) CONNECTIONS=$2; shift ;;
		--table-only) TABLE_ONLY=1; BUILD=0 ;;
		--name) RUN_NAME=$2; shift ;;
		*) echo "unknown option $1" >&2; exit 2 ;;
	esac
	shift
done
CAPACITY=$((50 * CONNECTIONS))
# The Bulkhead is hand-tuned as seed 000 tuned it: the connections, and three more waiting.
BULKHEAD_SIZE=$((CONNECTIONS + 3))
DEADLINE_MS=1000
CORE=/api/checkout
DEGRADABLE=/api/checkout/suggestions
# A shop out of heap exits, its log says so, rather than spinning on beside the next measurement.
JVM_FLAGS=(-Xms512m -Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError)
# name|streams: each stream is open=PATH@RATE[>RATE2] or closed=PATH@CLIENTS (rates in x of capacity).
SCENARIOS=(
	"open 0.5x|open=$CORE@0.5"
	"open 2x|open=$CORE@2"
	"open 10x|open=$CORE@10"
	"open 20x|open=$CORE@20"
	"open 50x|open=$CORE@50"
	"retry storm|closed=$CORE@200"
	"core and flood|closed=$CORE@100 closed=$DEGRADABLE@100"
	"flood 12x|open=$CORE@0.8 open=$DEGRADABLE@12"
	"flood cpu|open=$CORE@0.8 closed=$DEGRADABLE@200"
	"step 0.5x to 10x|open=$CORE@0.5>10"
)

if [[ -n $SCENARIO_FILTER ]]; then
	kept=()
	for scenario in "${SCENARIOS[@]}"; do
		[[ ${scenario%%|*} =~ $SCENARIO_FILTER ]] && kept+=("$scenario")
	done
	SCENARIOS=("${kept[@]}")
fi
((${#SCENARIOS[@]})) || { echo "no scenario matches $SCENARIO_FILTER" >&2; exit 2; }
PLATFORM_JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
find_jdk21() {
	local jdk
	for jdk in "${VIRTUAL_JAVA_HOME:-}" /usr/lib/jvm/*; do
		[[ -n $jdk && -x $jdk/bin/java ]] || continue
		local version
		version=$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | awk -F' = ' '/java.specification.version/ { print $2 }')
		if ((${version%%.*} >= 21)); then
			echo "$jdk/bin/java"
			return
		fi
	done
}
VIRTUAL_JAVA=$(find_jdk21)
if [[ " ${THREADS[*]} " == *" virtual "* && -z $VIRTUAL_JAVA ]]; then
	echo "no JDK 21+ for virtual threads: set VIRTUAL_JAVA_HOME, or --threads platform" >&2
	exit 1
fi
# The client runs on virtual threads when it can (one per open-loop request).
CLIENT_JAVA=${VIRTUAL_JAVA:-$PLATFORM_JAVA}

ensure_command curl curl
if ((BUILD)); then
	package_modules sample-app,sample-reactive,benchmarks
fi
RAW_CLIENT=("$CLIENT_JAVA" -Xms256m -Xmx256m -cp benchmarks/target/benchmarks.jar dev.degradation.benchmarks.OverloadClient)
AUTOCANNON_VERSION=8.0.0
NODE_DIR=benchmarks/target/node
if [[ " ${CLIENTS[*]} " == *" autocannon "* ]]; then
	ensure_command node nodejs
	ensure_command npm npm
	if [[ ! -f $NODE_DIR/node_modules/autocannon/package.json ]]; then
		mkdir -p "$NODE_DIR"
		npm install --prefix "$NODE_DIR" --no-audit --no-fund --silent "autocannon@$AUTOCANNON_VERSION" >&2
	fi
fi
client_command() { # client -> the command that runs it
	case $1 in
		raw) echo "${RAW_CLIENT[*]}" ;;
		autocannon) echo "env NODE_PATH=$NODE_DIR/node_modules node benchmarks/autocannon-client.js" ;;
		*) echo "unknown client $1" >&2; exit 2 ;;
	esac
}
RESULTS=benchmarks/results
mkdir -p "$RESULTS"
WORK=$(mktemp -d)
PID=""
trap '[[ -n $PID ]] && stop_app; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

start_app() { # name java jar args...
	local name=$1 java=$2 jar=$3 port=""
	shift 3
	"$java" "${JVM_FLAGS[@]}" -jar "$jar" --server.address=127.0.0.1 --server.port=0 \
		--degradation.probes.enabled=false --sample.capacity.connections="$CONNECTIONS" \
		${OVERLOAD_TRACE:+--management.endpoints.web.exposure.include=health,degradation,prometheus,metrics} \
		--sample.peer.bulkhead-size="$BULKHEAD_SIZE" "$@" >"$WORK/$name.log" 2>&1 &
	PID=$!
	for _ in $(seq 1 240); do
		port=$(grep -oE '(Tomcat|Netty) started on port [0-9]+' "$WORK/$name.log" | grep -oE '[0-9]+$' | head -1 || true)
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
	# A JVM out of heap may never run its shutdown: after 10 s it is killed outright, or it would
	# spin on beside the next configuration's measurements.
	for _ in $(seq 1 100); do
		kill -0 "$PID" 2>/dev/null || break
		sleep 0.1
	done
	kill -9 "$PID" 2>/dev/null || true
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
	echo "the shop's /demo/capacity did not answer; the process is $(kill -0 "$PID" 2>/dev/null && echo alive || echo gone)" >&2
	# Its own log says whether it hung, stalled or died: kept beside the results, since the
	# working directory goes on exit.
	local log
	log=$(ls -t "$WORK"/*.log 2>/dev/null | head -1)
	if [[ -n $log ]]; then
		cp "$log" "$RESULTS/overload-failed-$(basename "$log")"
		[[ -n $PID ]] && kill -0 "$PID" 2>/dev/null && command -v jcmd >/dev/null \
			&& jcmd "$PID" Thread.print >"$RESULTS/overload-failed-threads.txt" 2>&1
		echo "its log and threads: $RESULTS/overload-failed-*" >&2
	fi
	exit 1
}

# With OVERLOAD_TRACE set, the adaptive limit and the requests in flight, every 250 ms of a
# starter's scenario, to stderr: what the limit did, for finding why a latency is what it is.
trace_limit() {
	local limit inflight
	while sleep 0.25; do
		limit=$(curl -s -m 1 "http://127.0.0.1:$PORT/actuator/metrics/degradation.overload.limit" | grep -oE '"value":[0-9.]+' | cut -d: -f2)
		inflight=$(curl -s -m 1 "http://127.0.0.1:$PORT/actuator/metrics/degradation.overload.inflight" | grep -oE '"value":[0-9.]+' | cut -d: -f2)
		echo "${limit%.0}/${inflight%.0}"
	done
}

cpu_ticks() { # user + system time of the server, in clock ticks
	awk '{ print $14 + $15 }' "/proc/$PID/stat"
}

# Rates in multiples of the capacity, written as requests a second.
streams() { # "open=PATH@X ..." -> arguments of OverloadClient
	local stream out=()
	for stream in $1; do
		case $stream in
			open=*)
				local path=${stream#open=} rates
				rates=${path#*@}
				path=${path%@*}
				if [[ $rates == *">"* ]]; then
					out+=("open=$path@$(awk -v a="${rates%>*}" -v b="${rates#*>}" -v c=$CAPACITY 'BEGIN { print a * c ">" b * c }')")
				else
					out+=("open=$path@$(awk -v a="$rates" -v c=$CAPACITY 'BEGIN { print a * c }')")
				fi
				;;
			*) out+=("$stream") ;;
		esac
	done
	echo "${out[@]}"
}

TICKS=$(getconf CLK_TCK)
TSV=$RESULTS/overload.tsv
SECTION=results
if ((CONNECTIONS != 1)); then
	TSV=$RESULTS/overload-pool-$CONNECTIONS.tsv
	SECTION=results-pool-$CONNECTIONS
fi
if [[ -n $RUN_NAME ]]; then
	[[ $RUN_NAME =~ ^[a-z0-9-]+$ ]] || { echo "--name takes lower-case letters, digits and dashes" >&2; exit 2; }
	TSV=$RESULTS/overload-$RUN_NAME.tsv
	SECTION=results-$RUN_NAME
fi
# Checked before the run rather than after it: its tables are written into this section.
grep -q "<!-- generated:$SECTION -->" docs/overload.md || {
	echo "docs/overload.md has no section '$SECTION': add <!-- generated:$SECTION --> and <!-- /generated:$SECTION --> where its tables go" >&2
	exit 2
}
# When and under what load the run behind $TSV ran, for --table-only to write the same header.
RUN_FILE=${TSV%.tsv}-run.txt
if ((TABLE_ONLY)); then
	LOAD_START=unknown LOAD_END=unknown LOAD_DATE=$(date -u -r "$TSV" +%Y-%m-%dT%H:%MZ)
	# What the run itself recorded, when it did (runs before it was kept did not).
	if [[ -f $RUN_FILE ]]; then
		LOAD_DATE=$(sed -n 1p "$RUN_FILE") LOAD_START=$(sed -n 2p "$RUN_FILE") LOAD_END=$(sed -n 3p "$RUN_FILE")
	fi
else
echo -e "client\tthreads\tconfig\tscenario\tkind\tpath\tsent\tlive\tfallback\trefused\ttimeouts\terrors\tlive_p50\tlive_p99\tfallback_p50\tfallback_p99\trefused_p50\trefused_p99\trecovery_ms\tstep_timeouts\tserver_completed\tserver_cpu_s\tclient_cpu_s" >"$TSV"
LOAD_START=$(cat /proc/loadavg) LOAD_DATE=$(date -u +%Y-%m-%dT%H:%MZ)
for threads in "${THREADS[@]}"; do
	jar=sample-app/target/sample-app.jar
	if [[ $threads == virtual ]]; then
		java=$VIRTUAL_JAVA
		thread_flags=(--spring.threads.virtual.enabled=true)
	elif [[ $threads == webflux ]]; then
		java=$PLATFORM_JAVA
		jar=sample-reactive/target/sample-reactive.jar
		thread_flags=()
	else
		java=$PLATFORM_JAVA
		thread_flags=()
	fi
	for config in "${CONFIGS[@]}"; do
		case $config in
			starter) start_app "$config-$threads" "$java" "$jar" "${thread_flags[@]}" ;;
			starter-429) start_app "$config-$threads" "$java" "$jar" "${thread_flags[@]}" --sample.overload.refusal-status=429 ;;
			starter-at-once) start_app "$config-$threads" "$java" "$jar" "${thread_flags[@]}" --degradation.overload.refusal-turns=never ;;
			floor) start_app "$config-$threads" "$java" "$jar" "${thread_flags[@]}" --degradation.enabled=false --sample.peer=refuse-all ;;
			*) start_app "$config-$threads" "$java" "$jar" "${thread_flags[@]}" --degradation.enabled=false --sample.peer="$config" ;;
		esac
		# Warm-up: the same kinds of answers at the same rates, so that every configuration is
		# measured compiled.
		"${RAW_CLIENT[@]}" "http://127.0.0.1:$PORT" 10 "$DEADLINE_MS" open=$CORE@500 closed=$DEGRADABLE@100 >/dev/null
		sleep 3
		for scenario in "${SCENARIOS[@]}"; do
		for client in "${CLIENTS[@]}"; do
			name=${scenario%%|*}
			read -r -a args <<<"$(streams "${scenario#*|}")"
			if [[ $client == autocannon && "${args[*]}" == *">"* ]]; then
				continue
			fi
			read -r -a command <<<"$(client_command "$client")"
			before=$(capacity completed)
			ticks_before=$(cpu_ticks)
			tracer=""
			if [[ -n ${OVERLOAD_TRACE:-} && $config == starter* ]]; then
				trace_limit >"$WORK/trace.txt" &
				tracer=$!
			fi
			"${command[@]}" "http://127.0.0.1:$PORT" "$RUN_SECONDS" "$DEADLINE_MS" "${args[@]}" >"$WORK/run.tsv"
			if [[ -n $tracer ]]; then
				kill "$tracer" 2>/dev/null || true
				wait "$tracer" 2>/dev/null || true
				echo "$client $threads $config $name: limit / in flight every 250 ms: $(tr '\n' ' ' <"$WORK/trace.txt")" >&2
			fi
			server_cpu=$(awk -v a="$ticks_before" -v b="$(cpu_ticks)" -v t="$TICKS" 'BEGIN { printf "%.2f", (b - a) / t }')
			completed=$(($(capacity completed) - before))
			client_cpu=$(awk -F'\t' '$1 == "client_cpu_seconds" { print $2 }' "$WORK/run.tsv")
			while IFS=$'\t' read -r kind path rest; do
				[[ $kind == client_cpu_seconds ]] && continue
				IFS=$'\t' read -r -a fields <<<"$rest"
				recovery=${fields[12]:--}
				step_timeouts=${fields[13]:--}
				echo -e "$client\t$threads\t$config\t$name\t$kind\t$path\t$(IFS=$'\t'; echo "${fields[*]:0:12}")\t$recovery\t$step_timeouts\t$completed\t$server_cpu\t$client_cpu" >>"$TSV"
			done <"$WORK/run.tsv"
			echo "$client $threads $config $name: $(grep -v client_cpu "$WORK/run.tsv" | cut -f2-11 | tr '\n' ' ')| completed $completed, cpu server $server_cpu s client $client_cpu s" >&2
			# Let what is still running drain before the next scenario.
			sleep 3
		done
		done
		stop_app
	done
done
LOAD_END=$(cat /proc/loadavg)
printf '%s\n' "$LOAD_DATE" "$LOAD_START" "$LOAD_END" >"$RUN_FILE"
fi

# The tables for docs/overload.md: first the measures of the issue that asked for them, every model
# and configuration side by side; then one table per model with every scenario.
model_title() {
	case $1 in
		platform) echo "Spring MVC, platform threads" ;;
		virtual) echo "Spring MVC, virtual threads" ;;
		webflux) echo "WebFlux (Reactor Netty)" ;;
		*) echo "$1" ;;
	esac
}
TABLE=$WORK/table.md
{
	echo "Run on $LOAD_DATE with \`benchmarks/overload.sh\` ($RUN_SECONDS s a scenario, a ${DEADLINE_MS} ms client deadline, capacity $CAPACITY answers/s: $CONNECTIONS connection(s) held 20 ms a request; the Bulkhead of $BULKHEAD_SIZE). Spring MVC on platform threads and WebFlux on $("$PLATFORM_JAVA" -version 2>&1 | head -1); Spring MVC on virtual threads on $( [[ -n $VIRTUAL_JAVA ]] && "$VIRTUAL_JAVA" -version 2>&1 | head -1). Load average at the start: $LOAD_START; at the end: $LOAD_END."
	echo
	echo "#### The core overloaded, and flooded, on every model, with both clients"
	echo
	echo "Each row is measured once with each client against the same JVM, the client on the same two cores: \`raw\` is the harness's own client, \`autocannon\` the standard load generator. Client timeouts count requests given up after the ${DEADLINE_MS} ms deadline."
	echo
	columns="" rule=""
	for threads in "${THREADS[@]}"; do
		for config in "${CONFIGS[@]}"; do
			columns+=" $(model_title "$threads"): $config |"
			rule+=" ---: |"
		done
	done
	echo "| measure | client |$columns"
	echo "| --- | --- |$rule"
	awk -F'\t' -v clients="${CLIENTS[*]}" -v models="${THREADS[*]}" -v configs="${CONFIGS[*]}" -v seconds="$RUN_SECONDS" -v core="$CORE" -v capacity="$CAPACITY" '
		NR > 1 && $6 == core { key = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
			useful[key] = sprintf("%.1f", $8 / seconds); p50[key] = $13; p99[key] = $14
			refusal[key] = ($10 > 0) ? $17 " / " $18 : "none"
			offered[key] = ($7 > 0) ? sprintf("%.0f %%", 100 * $8 / $7) : "-"
			cpu[key] = $22 " / " $23; timeouts[key] = $11 }
		# A row no cell of which was measured (a scenario left out with --scenarios) is left out.
		function row(title, scenario, what,   k, line, m, c, key, found) {
			for (k = 1; k <= nk; k++) {
				line = "| " title " | " client[k] " |"
				found = 0
				for (m = 1; m <= nm; m++) for (c = 1; c <= nc; c++) {
					key = client[k] SUBSEP model[m] SUBSEP config[c] SUBSEP scenario
					if (!(key in useful)) { line = line " - |"; continue }
					found = 1
					if (what == "useful") line = line " " useful[key] " |"
					else if (what == "latency") line = line " " p50[key] " / " p99[key] " |"
					else if (what == "refusal") line = line " " refusal[key] " |"
					else if (what == "offered") line = line " " offered[key] " |"
					else if (what == "cpu") line = line " " cpu[key] " |"
					else line = line " " timeouts[key] " |"
				}
				if (found) print line
			}
		}
		END { nk = split(clients, client, " "); nm = split(models, model, " "); nc = split(configs, config, " ")
			row("retry storm (200 clients on the core): useful answers / s (capacity " capacity ")", "retry storm", "useful")
			row("retry storm: admitted p50 / p99 ms (service 20 ms)", "retry storm", "latency")
			row("retry storm: refusals p50 / p99 ms", "retry storm", "refusal")
			row("retry storm: client timeouts", "retry storm", "timeouts")
			row("retry storm: CPU s, server / client", "retry storm", "cpu")
			row("core and flood (100 + 100 clients): core useful / s", "core and flood", "useful")
			row("core and flood: core admitted p50 / p99 ms", "core and flood", "latency")
			row("core and flood: CPU s, server / client", "core and flood", "cpu")
			row("flood cpu (core 0.8x, 200 clients flood): core useful / offered", "flood cpu", "offered")
			row("flood cpu: core admitted p50 / p99 ms", "flood cpu", "latency")
			row("open 50x: useful / s", "open 50x", "useful")
			row("open 50x: admitted p50 / p99 ms", "open 50x", "latency")
			row("open 50x: refusals p50 / p99 ms", "open 50x", "refusal")
			row("open 50x: client timeouts", "open 50x", "timeouts")
		}' "$TSV"
	for threads in "${THREADS[@]}"; do
		echo
		echo "#### $(model_title "$threads")"
		echo
		echo "| scenario | stream | client | configuration | sent | useful (live 2xx) | useful / capacity | useful / offered | fallbacks | refusals | client timeouts | live p50 / p99 ms | fallback p99 ms | refusal p99 ms | step: p99 back under bound after | answers / server CPU-s | CPU s server / client |"
		echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
		scenario_order=$(printf '%s\n' "${SCENARIOS[@]}" | cut -d'|' -f1 | paste -sd'|')
		config_order=$(IFS='|'; echo "${CONFIGS[*]}")
		client_order=$(IFS='|'; echo "${CLIENTS[*]}")
		awk -F'\t' -v threads="$threads" -v capacity="$CAPACITY" -v seconds="$RUN_SECONDS" \
			-v scenarios="$scenario_order" -v configs="$config_order" -v clients="$client_order" '
			NR > 1 && $2 == threads {
				key = $3 SUBSEP $4 SUBSEP $1
				answered[key] += $7 - $11
				cpu[key] = $22
				rows[key] = rows[key] $0 "\n"
			}
			END {
				ns = split(scenarios, scenario, "|")
				nc = split(configs, config, "|")
				nk = split(clients, client, "|")
				for (s = 1; s <= ns; s++) {
					for (c = 1; c <= nc; c++) for (k = 1; k <= nk; k++) {
						key = config[c] SUBSEP scenario[s] SUBSEP client[k]
						n = split(rows[key], lines, "\n")
						for (l = 1; l <= n; l++) {
							if (lines[l] == "") continue
							split(lines[l], g, "\t")
							for (i = 2; i <= 23; i++) f[i - 1] = g[i]
							useful = sprintf("%.0f %%", 100 * f[7] / (capacity * seconds))
							offered = (f[6] > 0) ? sprintf("%.0f %%", 100 * f[7] / f[6]) : "-"
							per_cpu = (cpu[key] > 0) ? sprintf("%.0f", answered[key] / cpu[key]) : "-"
							step = (f[4] == "step") ? ((f[18] == "-") ? "never" : f[18] " ms, " f[19] " timeouts in its 1st s") : ""
							printf "| %s | `%s` %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s / %s | %s | %s | %s | %s | %s / %s |\n", f[3], f[5], f[4], g[1], f[2], f[6], f[7], useful, offered, f[8], f[9], f[10], f[12], f[13], f[15], f[17], step, per_cpu, f[21], f[22]
						}
					}
				}
			}' "$TSV"
	done
} >"$TABLE"
replace_section docs/overload.md "$SECTION" "$TABLE"
cat "$TABLE"
