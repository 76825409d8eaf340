#!/usr/bin/env bash
# Load test of the sample shop on this machine, loopback only, bounded in time (about 35 minutes
# with the defaults), stopping its applications on exit.
#
#   1. Throughput of a trivial core endpoint (GET /api/products) with the starter on and every tier
#      live, against the same application with --degradation.enabled=false, each configuration
#      running twice ("starter-on" and "starter-on-2", "starter-off" and "starter-off-2"): each JVM
#      compiles its own code, and two identical JVMs can differ by a few per cent for their whole
#      life, so one JVM per configuration would let one JVM's luck pass for the starter's cost. All
#      four run side by side and are measured one after the other in every round, in an order
#      that cycles through a balanced Latin square (each takes every position once in four rounds,
#      and follows each other once). Per round the paired ratio of the configurations is the sum
#      of the two starter-on throughputs over the sum of the two starter-off ones. The rounds come
#      in blocks, and every block starts four new JVMs: the rounds of one block share its JVMs'
#      luck, so their t-interval is too narrow (in a run of 144 rounds with the same four JVMs,
#      two identical JVMs differed by 1.6 %, interval 0.3 to 3.0 %). Each block counts once, as
#      the mean of its paired ratios, and the mean over the blocks with its 95 % t-interval over
#      the blocks is the result; the interval over all rounds is shown beside it. The ratios of
#      the two JVMs of one configuration (starter-on-2 / starter-on, starter-off-2 / starter-off)
#      are A/A checks: they show what this very run can resolve.
#   2. A shed route answered from its static fallback (GET /api/recommendations at level 2, set
#      through POST /actuator/degradation) against the two cheapest live routes of the same
#      application at the same level (GET /api/products and GET /api/products/p-1), all three
#      measured the same way in every round; the faster live route over the rounds is the one the
#      target compares with.
#
# Noise. Every application gets the same JVM flags (JVM_FLAGS below: fixed heap, pre-touched, G1
# named explicitly, so that pinning, which makes a JVM see one CPU, cannot switch it to Serial), and
# is warmed up until its throughput settles or four passes have run (warm_up below). The speed of
# this machine changes from second to second: one warmed application, alone under load, went from 25,000 to 16,500
# requests/s over 90 s at the same CPU time, and its CPU time per request moves with it (in one run
# the paired on / off ratio of CPU time per request scattered as widely as that of requests/s:
# benchmarks/results/window/cpu.tsv), so a finer measure of each application does not help; only
# pairing within a round does. Windows of 4 s: the same three applications measured in rounds of
# 1, 2 and 4 s windows (benchmarks/results/window/rounds.tsv) gave a standard deviation of the
# paired on / off ratio of 0.058, 0.092 and 0.020, and of the ratio of two starter-on JVMs of 0.051, 0.075 and
# 0.039 (18, 18 and 12 rounds): a longer window averages the second-to-second changes out, and the
# three windows of a round still lie within 15 s of each other.
#
# The starter's own share of the request threads' CPU. After the rounds, async-profiler 4.1 (from
# Maven Central) is attached to starter-on for PROFILE_SECONDS of the same load, and the CPU
# samples of the request threads that are inside DegradationFilter itself (its own code and what it
# calls, other than the rest of the filter chain) are counted. This measures the starter's direct
# work without the machine's noise; it does not see what the filter changes elsewhere (one more
# filter in Tomcat's chain, one more header written, how the JIT compiles the chain). It is
# skipped, with a note, when the profiler or jcmd is not available.
#
# Pinning: not by default. --pin runs the applications on CPU 0 (taskset -c 0) and wrk on
# CPU 1 (taskset -c 1). Measured on this 2-core machine, 3 runs each, alternating pinned and not
# pinned, 6 rounds of 3 s each (the raw rounds are in benchmarks/results/pinning/): the standard
# deviation of the paired ratio of two starter-on JVMs within a run was 0.125, 0.025 and 0.153
# pinned, against 0.062, 0.019 and 0.056 not pinned, and its mean ranged over 0.966 to 1.074 pinned
# against 0.964 to 1.029 not pinned. Pinned, an application has one core for its request threads
# and its JIT compiler threads together: no pinned run settled within 4 warm-up passes (every JVM
# at least doubled its throughput during them; 2 of the 3 runs not pinned settled), and the rounds
# averaged about 16,000 requests/s against about 20,000 not pinned. Pinning widened the A/A
# spread, so it is off.
#
# Prints the tables and writes them into the generated sections of docs/performance.md.
#
# Usage: benchmarks/load.sh [--no-build] [--blocks N] [--rounds N] [--duration SECONDS]
#                           [--warmup SECONDS] [--pin | --no-pin] [--doc FILE]
#                           [--fallback-only] [--fallback-rounds N]
# Defaults: 6 blocks of 8 rounds (--rounds is per block) of 4 s windows for the overhead, each
# block about 5 minutes with its start and warm-up (the interval narrows with the square root of
# the blocks); 12 rounds for the fallback, warm-up passes of 8 s, a profile of 20 s, not pinned;
# about 35 minutes. --fallback-only runs part 2 alone on one new application (warmed up as a block's
# are), without the overhead and its profile: about 4 minutes with 6 rounds.
# Needs wrk and curl (a missing one is installed with apt-get), and taskset (util-linux) for --pin.
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib.sh

# WARMUP_PASSES_MAX: the most full-load warm-up passes of a block's applications.
WARMUP_PASSES_MAX=4
BUILD=1 BLOCKS=6 ROUNDS=8 FALLBACK_ROUNDS=12 DURATION=4 WARMUP=8 PROFILE_SECONDS=20 THREADS=2 CONNECTIONS=32 DOC=docs/performance.md PIN=0
FALLBACK_ONLY=0
while (($#)); do
	case $1 in
	--no-build) BUILD=0 ;;
	--blocks) BLOCKS=$2; shift ;;
	--rounds) ROUNDS=$2; shift ;;
	--fallback-rounds) FALLBACK_ROUNDS=$2; shift ;;
	--fallback-only) FALLBACK_ONLY=1 ;;
	--duration) DURATION=$2; shift ;;
	--warmup) WARMUP=$2; shift ;;
	--pin) PIN=1 ;;
	--no-pin) PIN=0 ;;
	--doc) DOC=$2; shift ;;
	*) echo "unknown argument: $1" >&2; exit 2 ;;
	esac
	shift
done

JVM_FLAGS=(-Xms256m -Xmx256m -XX:+AlwaysPreTouch -XX:+UseG1GC)
ensure_command wrk wrk
ensure_command curl curl
if ((PIN)) && { ! command -v taskset >/dev/null 2>&1 || (($(nproc) < 2)); }; then
	echo "no taskset or fewer than 2 CPUs: not pinning" >&2
	PIN=0
fi
if ((PIN)); then
	SERVER_CPU=(taskset -c 0) WRK_CPU=(taskset -c 1)
	PLACEMENT="the three applications pinned to CPU 0 (\`taskset -c 0\`), \`wrk\` to CPU 1 (\`taskset -c 1\`)"
else
	SERVER_CPU=() WRK_CPU=()
	PLACEMENT="not pinned: the applications and \`wrk\` share both CPUs"
fi
if ((ROUNDS % 4)); then
	echo "warning: $ROUNDS rounds a block is not a multiple of 4; the four orders are not balanced" >&2
fi
if ((BLOCKS < 1)); then
	echo "--blocks must be at least 1" >&2
	exit 2
elif ((BLOCKS < 2)); then
	echo "warning: with $BLOCKS block the interval over blocks cannot be computed" >&2
fi
if ((BUILD)); then
	package_modules sample-app
fi
JAR=sample-app/target/sample-app.jar
RESULTS=benchmarks/results
mkdir -p "$RESULTS"
WORK=$(mktemp -d)
PIDS=()
LOAD_START=$(cat /proc/loadavg) LOAD_DATE=$(date -u +%Y-%m-%dT%H:%MZ)

stop_apps() {
	for pid in "${PIDS[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	for pid in "${PIDS[@]}"; do
		wait "$pid" 2>/dev/null || true
	done
	PIDS=()
}
trap 'stop_apps; rm -rf "$WORK"' EXIT
trap 'exit 130' INT TERM

# start_app NAME ARGS...: starts the shop on a free loopback port and sets PORT_<NAME>.
start_app() {
	local name=$1 port="" pid
	shift
	"${SERVER_CPU[@]}" java "${JVM_FLAGS[@]}" -jar "$JAR" --server.address=127.0.0.1 --server.port=0 \
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
	printf -v "PORT_${name//-/_}" '%s' "$port"
	printf -v "PID_${name//-/_}" '%s' "$pid"
	echo "$name: 127.0.0.1:$port ($*)" >&2
}

# fetch_profiler: sets PROFILER_LIB to async-profiler's agent for this machine (fetched from Maven
# Central once, into benchmarks/target), or leaves it empty and sets PROFILE_NOTE to why.
fetch_profiler() {
	local arch dir=benchmarks/target/async-profiler version=4.1
	PROFILER_LIB=""
	case $(uname -m) in
	x86_64) arch=linux-x64 ;;
	aarch64) arch=linux-arm64 ;;
	*) PROFILE_NOTE="not measured: async-profiler has no build for $(uname -m)"; return ;;
	esac
	if ! command -v jcmd >/dev/null 2>&1 || ! command -v jar >/dev/null 2>&1; then
		PROFILE_NOTE="not measured: the JDK's jcmd or jar is missing"
		return
	fi
	if [[ ! -f $dir/$arch/libasyncProfiler.so ]]; then
		mkdir -p "$dir"
		if ! ./mvnw -q -B -N dependency:copy -Dartifact="tools.profiler:async-profiler:$version" \
			-DoutputDirectory="$dir" >&2 || ! (cd "$dir" && jar xf "async-profiler-$version.jar" "$arch/libasyncProfiler.so"); then
			PROFILE_NOTE="not measured: async-profiler $version could not be fetched from Maven Central"
			return
		fi
	fi
	PROFILER_LIB=$(realpath "$dir/$arch/libasyncProfiler.so")
}

# profile_share PID URL: profiles the application PID (CPU time, 1 ms interval) while wrk loads URL
# for PROFILE_SECONDS, and sets PROFILE_SAMPLES (CPU samples of its request threads) and
# PROFILE_OWN (those inside DegradationFilter but not in the rest of the chain it calls).
profile_share() {
	local pid=$1 url=$2 out=$WORK/profile.collapsed
	# jcmd reads key=value as its own arguments unless the agent's options are quoted.
	jcmd "$pid" JVMTI.agent_load "$PROFILER_LIB" "\"start,event=itimer,interval=1ms,threads\"" | grep -q 'return code: 0' \
		|| { echo "the profiler did not start" >&2; exit 1; }
	measure "$url" "$PROFILE_SECONDS" >/dev/null
	jcmd "$pid" JVMTI.agent_load "$PROFILER_LIB" "\"stop,collapsed,file=$out\"" | grep -q 'return code: 0' \
		|| { echo "the profiler did not stop" >&2; exit 1; }
	read -r PROFILE_SAMPLES PROFILE_OWN < <(awk '
		# Collapsed stacks: "[thread];frame;frame;... count", outermost frame first.
		{ count = $NF; stack = substr($0, 1, length($0) - length($NF) - 1) }
		stack !~ /^\[http-nio-/ { next }
		{ total += count; n = split(stack, frame, ";"); inside = 0; onward = 0
			for (i = 2; i <= n; i++) {
				if (!inside && frame[i] ~ /DegradationFilter\.doFilter/) inside = 1
				else if (inside && frame[i] ~ /FilterChain\.doFilter/) { onward = 1; break }
			}
			if (inside && !onward) own += count }
		END { print total + 0, own + 0 }' "$out")
	((PROFILE_SAMPLES > 0)) || { echo "the profile holds no sample of a request thread" >&2; exit 1; }
}

# measure URL SECONDS: prints "requests/s p50 p90 p99 requests errors".
measure() {
	"${WRK_CPU[@]}" wrk -t"$THREADS" -c"$CONNECTIONS" -d"$2"s --timeout 5s -s benchmarks/wrk-report.lua "$1" \
		| awk '/^RESULT/ { print $2, $3, $4, $5, $6, $7 }'
}

expect() { # description command...
	local description=$1
	shift
	"$@" >/dev/null || { echo "check failed: $description" >&2; exit 1; }
}

# warm_up PRE MAX "LABEL URL"...: brings every URL's application to a steady state, in turn. When
# PRE is 1, first WARMUP s at 2 connections each: with 32 busy request threads on a loaded core the
# JIT's compiler threads get a small share of the CPU, and a fresh application can take over a
# minute to reach its speed. Then passes of WARMUP s at full load until each URL's last pass is
# within 5 % of its previous one (at least 2 passes, at most MAX). Sets WARMUP_NOTE, and
# WARMUP_PASSES to the number of passes (marked when they did not settle).
warm_up() {
	local pre=$1 max=$2 entry pass settled=0 passes=0 rps previous=() current=() i
	shift 2
	if ((pre)); then
		for entry in "$@"; do
			"${WRK_CPU[@]}" wrk -t1 -c2 -d"$WARMUP"s --timeout 5s "${entry#* }" >/dev/null
		done
	fi
	for ((pass = 1; pass <= max; pass++)); do
		settled=1 i=0 current=() passes=$pass
		for entry in "$@"; do
			rps=$(measure "${entry#* }" "$WARMUP" | cut -d' ' -f1)
			current+=("$rps")
			echo "warm-up pass $pass ${entry%% *}: $rps requests/s" >&2
			if ((pass == 1)) || ! awk -v a="$rps" -v b="${previous[$i]}" 'BEGIN { exit !(a >= 0.95 * b && a <= 1.05 * b) }'; then
				settled=0
			fi
			i=$((i + 1))
		done
		previous=("${current[@]}")
		if ((settled)); then break; fi
	done
	WARMUP_NOTE="a warm-up of "
	((pre)) && WARMUP_NOTE+="${WARMUP} s each at 2 connections, then "
	WARMUP_NOTE+="$passes passes of ${WARMUP} s each at full load, in turn ("
	if ((settled)); then
		WARMUP_NOTE+="the last within 5 % of the one before"
	else
		WARMUP_NOTE+="not yet within 5 % of the one before after $max passes"
	fi
	WARMUP_NOTE+=")"
	WARMUP_PASSES=$passes
	((settled)) || WARMUP_PASSES+=" (not settled)"
}

# rounds SECTION COUNT LABEL URL LABEL URL [LABEL URL [LABEL URL]]: COUNT rounds in which every
# configuration is measured once, in an order that cycles through every permutation (2 or 6 of
# them) or, for four, through a balanced Latin square, so that a drift of the machine hits all
# alike; appends "section round position label result block" lines to $RESULTS/load.tsv, the
# rounds numbered from ROUND_BASE + 1, the block being BLOCK.
rounds() {
	local section=$1 count=$2 round position index result perms
	shift 2
	local labels=() urls=()
	while (($#)); do labels+=("$1"); urls+=("$2"); shift 2; done
	if ((${#labels[@]} == 4)); then
		# Williams' square: each position once, and each immediately after each other once.
		perms=("0 1 3 2" "1 2 0 3" "2 3 1 0" "3 0 2 1")
	elif ((${#labels[@]} == 3)); then
		# The three rotations first, then the three rotations of the reverse order.
		perms=("0 1 2" "1 2 0" "2 0 1" "0 2 1" "2 1 0" "1 0 2")
	else
		perms=("0 1" "1 0")
	fi
	for ((round = 1; round <= count; round++)); do
		position=0
		for index in ${perms[$(((round - 1) % ${#perms[@]}))]}; do
			position=$((position + 1))
			result=$(measure "${urls[$index]}" "$DURATION")
			echo "$section $((ROUND_BASE + round)) $position ${labels[$index]} $result $BLOCK" | tee -a "$RESULTS/load.tsv" >&2
		done
	done
}

# The common part of the awk programs of round_table and block_table: the labels (L, k), the ratios
# (R, m) and their titles (T) from the variables passed in, a group's requests/s in a round, and
# the header row: the given first columns, then a column per label, per ratio, and the errors.
TABLE_AWK='
	function total(r, group,   g, n, i, sum) { n = split(group, g, "+"); for (i = 1; i <= n; i++) sum += rps[r, g[i]]; return sum }
	function header(first, first_rule,   i, j, head, rule) {
		head = first; rule = first_rule
		for (i = 1; i <= k; i++) { head = head " " L[i] " |"; rule = rule " ---: |" }
		for (j = 1; j <= m; j++) { head = head " " T[j] " |"; rule = rule " ---: |" }
		print head " errors |"; print rule " ---: |"
	}
	BEGIN { k = split(labels, L, " "); m = split(ratios, R, " "); split(titles, T, "|") }
'

# round_table SECTION LABEL...: one Markdown row per round: the order, each configuration's
# requests/s (p50 / p90 / p99 ms), the errors of each, and the paired ratios of the round.
# RATIOS holds the pairs "A,B" (the ratio A / B) to show, with their column titles in RATIO_TITLES;
# A or B may be a group "X+Y", whose requests/s are summed.
round_table() {
	local section=$1
	shift
	awk -v section="$section" -v labels="$*" -v ratios="${RATIOS[*]}" -v titles="$(IFS='|'; echo "${RATIO_TITLES[*]}")" "$TABLE_AWK"'
		$1 == section { r = $2; rounds[r] = 1; if (r > last) last = r
			rps[r, $4] = $5; lat[r, $4] = sprintf("%.2f / %.2f / %.2f", $6, $7, $8); err[r, $4] = $10
			order[r] = order[r] (order[r] == "" ? "" : ", ") $4 }
		END {
			header("| round | order |", "| ---: | --- |")
			for (r = 1; r <= last; r++) { if (!(r in rounds)) continue
				line = "| " r " | " order[r] " |"; errors = ""
				for (i = 1; i <= k; i++) {
					line = line sprintf(" %.0f (%s) |", rps[r, L[i]], lat[r, L[i]])
					errors = errors (i > 1 ? " / " : "") err[r, L[i]] + 0
				}
				for (j = 1; j <= m; j++) { split(R[j], p, ",")
					line = line sprintf(" %.3f |", total(r, p[1]) / total(r, p[2])) }
				print line " " errors " |"
			}
		}' "$RESULTS/load.tsv"
}

# ratio_table SECTION A,B...: the summary of each pair: ratio of the means, median of the paired
# ratios, mean of the paired ratios with its 95 % interval.
ratio_table() {
	local section=$1 pair n means median mean low high
	shift
	echo "| ratio | rounds | ratio of the means | median of the paired ratios | mean of the paired ratios (95 % interval) |"
	echo "| --- | ---: | ---: | ---: | ---: |"
	for pair in "$@"; do
		read -r n means median mean low high < <(paired_ratio "$RESULTS/load.tsv" "$section" "${pair%%,*}" "${pair#*,}")
		printf '| %s / %s | %d | %.3f | %.3f | **%.3f** (%.3f to %.3f) |\n' "${pair%%,*}" "${pair#*,}" \
			"$n" "$means" "$median" "$mean" "$low" "$high"
	done
}

# block_table SECTION LABEL...: one Markdown row per block (new JVMs): each configuration's mean
# requests/s over the block's rounds, the mean of each paired ratio of RATIOS (as in round_table)
# over them, and the errors. A round counts only when every label was measured in it (an
# interrupted run leaves its last round incomplete).
block_table() {
	local section=$1
	shift
	awk -v section="$section" -v labels="$*" -v ratios="${RATIOS[*]}" -v titles="$(IFS='|'; echo "${RATIO_TITLES[*]}")" "$TABLE_AWK"'
		$1 == section { r = $2; block[r] = $NF; blocks[$NF] = 1; if ($NF > last) last = $NF
			rps[r, $4] = $5; err[$NF] += $10 }
		END {
			header("| block | rounds |", "| ---: | ---: |")
			for (r in block) { complete = 1
				for (i = 1; i <= k; i++) if (!((r, L[i]) in rps)) complete = 0
				if (!complete) continue
				b = block[r]; n[b]++
				for (i = 1; i <= k; i++) sum[b, i] += rps[r, L[i]]
				for (j = 1; j <= m; j++) { split(R[j], p, ","); ratio[b, j] += total(r, p[1]) / total(r, p[2]) } }
			for (b = 1; b <= last; b++) { if (!(b in n)) continue
				line = "| " b " | " n[b] " |"
				for (i = 1; i <= k; i++) line = line sprintf(" %.0f |", sum[b, i] / n[b])
				for (j = 1; j <= m; j++) line = line sprintf(" %.3f |", ratio[b, j] / n[b])
				print line " " err[b] + 0 " |"
			}
		}' "$RESULTS/load.tsv"
}

# block_ratio_table SECTION A,B...: each pair's mean over the blocks with its 95 % interval over
# the blocks (block_ratio in lib.sh), beside the mean over all rounds with its interval over the
# rounds.
block_ratio_table() {
	local section=$1 pair blocks block_mean block_low block_high n means median mean low high
	shift
	echo "| ratio | blocks | mean of the block means (95 % interval over the blocks) | rounds | mean of the paired ratios (95 % interval over the rounds) |"
	echo "| --- | ---: | ---: | ---: | ---: |"
	for pair in "$@"; do
		read -r blocks block_mean block_low block_high < <(block_ratio "$RESULTS/load.tsv" "$section" "${pair%%,*}" "${pair#*,}")
		read -r n means median mean low high < <(paired_ratio "$RESULTS/load.tsv" "$section" "${pair%%,*}" "${pair#*,}")
		printf '| %s / %s | %d | **%.3f** (%.3f to %.3f) | %d | %.3f (%.3f to %.3f) |\n' "${pair%%,*}" "${pair#*,}" \
			"$blocks" "$block_mean" "$block_low" "$block_high" "$n" "$mean" "$low" "$high"
	done
}

if ((FALLBACK_ONLY)); then
	# The overhead's rounds stay: docs/performance.md's overhead table is theirs.
	grep -v '^fallback ' "$RESULTS/load.tsv" >"$WORK/load.tsv" 2>/dev/null || true
	cp "$WORK/load.tsv" "$RESULTS/load.tsv"
else
	: >"$RESULTS/load.tsv"
fi
# The overhead, block by block: four new JVMs for each block, so that the interval over the blocks
# covers each JVM's luck (how the JIT compiled it), which the rounds of one block share. The last
# block's applications stay up for the profile and the fallback part.
WARMUP_NOTES=()
((FALLBACK_ONLY)) && BLOCKS=0
for ((BLOCK = 1; BLOCK <= BLOCKS; BLOCK++)); do
	stop_apps
	started=$SECONDS
	start_app starter-on
	start_app starter-on-2
	start_app starter-off --degradation.enabled=false
	start_app starter-off-2 --degradation.enabled=false
	echo "block $BLOCK of $BLOCKS: started the four applications in $((SECONDS - started)) s" >&2
	ON=http://127.0.0.1:$PORT_starter_on
	ON2=http://127.0.0.1:$PORT_starter_on_2
	OFF=http://127.0.0.1:$PORT_starter_off
	OFF2=http://127.0.0.1:$PORT_starter_off_2

	for url in "$ON" "$ON2"; do
		expect "/api/products answers with the starter on, level 0 ($url)" \
			bash -c "curl -sfi '$url/api/products' | grep -qi '^x-degradation-level: 0'"
	done
	for url in "$OFF" "$OFF2"; do
		expect "/api/products answers without the starter's header when it is disabled ($url)" \
			bash -c "curl -sfi '$url/api/products' >'$WORK/off.txt' && ! grep -qi '^x-degradation-level' '$WORK/off.txt'"
	done

	warm_up 1 "$WARMUP_PASSES_MAX" "starter-on $ON/api/products" "starter-on-2 $ON2/api/products" \
		"starter-off $OFF/api/products" "starter-off-2 $OFF2/api/products"
	WARMUP_NOTES+=("$WARMUP_PASSES")
	ROUND_BASE=$(((BLOCK - 1) * ROUNDS))
	rounds overhead "$ROUNDS" starter-on "$ON/api/products" starter-on-2 "$ON2/api/products" \
		starter-off "$OFF/api/products" starter-off-2 "$OFF2/api/products"
done
BLOCK=$BLOCKS ROUND_BASE=0

if ((FALLBACK_ONLY)); then
	BLOCK=1
	start_app starter-on
	ON=http://127.0.0.1:$PORT_starter_on
	warm_up 1 "$WARMUP_PASSES_MAX" "starter-on $ON/api/products"
	LEVEL0_WARMUP_NOTE=$WARMUP_NOTE
	PROFILE_NOTE="not measured (--fallback-only)"
fi
((FALLBACK_ONLY)) || fetch_profiler
if ((FALLBACK_ONLY)); then
	:
elif [[ -n $PROFILER_LIB ]]; then
	echo "profiling starter-on for ${PROFILE_SECONDS} s" >&2
	profile_share "$PID_starter_on" "$ON/api/products"
	PROFILE_SHARE=$(awk -v own="$PROFILE_OWN" -v all="$PROFILE_SAMPLES" 'BEGIN { printf "%.2f", 100 * own / all }')
	PROFILE_NOTE="$PROFILE_OWN of $PROFILE_SAMPLES CPU samples of the request threads ($PROFILE_SHARE %) were inside the starter's filter"
	set_property "$RESULTS/run.properties" load.profile.samples "$PROFILE_SAMPLES"
	set_property "$RESULTS/run.properties" load.profile.own "$PROFILE_OWN"
else
	set_property "$RESULTS/run.properties" load.profile.samples ""
	set_property "$RESULTS/run.properties" load.profile.own ""
fi
echo "profile: $PROFILE_NOTE" >&2

curl -sf -X POST -H 'Content-Type: application/json' -d '{"enabled": true, "level": 2}' \
	"$ON/actuator/degradation" >/dev/null
expect "/api/recommendations answers from its static fallback at level 2" \
	bash -c "curl -sfi '$ON/api/recommendations' | grep -qi '^x-degraded: true'"
expect "/api/products stays live at level 2" \
	bash -c "curl -sfi '$ON/api/products' | grep -qi '^x-degradation-level: 2'"

echo "warming up the level-2 routes and picking the cheapest live one" >&2
# The application is warm already; only the level-2 paths (the lookup, the fallback writer) are new.
warm_up 0 3 "static-fallback $ON/api/recommendations" "/api/products $ON/api/products" "/api/products/p-1 $ON/api/products/p-1"
# Both live candidates take part in every round, so that the cheaper one is known from the same
# rounds rather than from a short trial before them (a 3 s trial picked either, run to run).
rounds fallback "$FALLBACK_ROUNDS" static-fallback "$ON/api/recommendations" \
	live:/api/products "$ON/api/products" live:/api/products/p-1 "$ON/api/products/p-1"
best=$(cheaper_live_route "$RESULTS/load.tsv")
echo "cheapest live route: $best" >&2
LOAD_END=$(cat /proc/loadavg)
# For the machine table of run-all.sh (a run of the whole test only). The load average at the end
# counts this test's own busy request threads: it says little about other work.
if ((!FALLBACK_ONLY)); then
	set_property "$RESULTS/run.properties" load.date "$LOAD_DATE"
	set_property "$RESULTS/run.properties" load.loadavg.start "$LOAD_START"
	set_property "$RESULTS/run.properties" load.loadavg.end "$LOAD_END"
fi

COMMAND="java ${JVM_FLAGS[*]} -jar sample-app.jar --server.address=127.0.0.1 --server.port=0 --degradation.probes.enabled=false"
if ((FALLBACK_ONLY)); then
	APPLICATION="One application, \`$COMMAND\`, warmed up at level 0 ($LEVEL0_WARMUP_NOTE), then set"
	PLACE_NOTE="Load: \`wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s\` on the same machine, $PLACEMENT (\`benchmarks/load.sh --fallback-only\`, $LOAD_DATE; load average at the start: $LOAD_START, at the end: $LOAD_END)."
else
	APPLICATION="The starter-on application of the table above, then set"
	PLACE_NOTE="Same load and placement."
fi
AA_NOTE="*starter-on-2* and *starter-off-2* are second JVMs of the same two configurations: with a perfect measurement, starter-on-2 / starter-on and starter-off-2 / starter-off would be exactly 1, so their distance from 1 and the width of their intervals show the smallest difference this run can resolve. Two identical JVMs can differ for their whole life (each compiles its own code), which the rounds of a block share: an interval over the rounds is too narrow for that, and one over the blocks, each with four new JVMs, is not. The verdict uses the blocks."
((FALLBACK_ONLY)) || {
	echo "Four applications side by side: *starter-on* \`$COMMAND\`, *starter-off* the same with \`--degradation.enabled=false\`, and a second JVM of each, *starter-on-2* and *starter-off-2*. Load: \`wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s\` on the same machine, $PLACEMENT. $BLOCKS blocks, each with four new JVMs: a warm-up of ${WARMUP} s each at 2 connections, then passes of ${WARMUP} s each at full load, in turn, until the last is within 5 % of the one before (at most $WARMUP_PASSES_MAX; passes per block: $(IFS=,; echo "${WARMUP_NOTES[*]}" | sed 's/,/, /g')), then $ROUNDS rounds; in each round the four are measured one after the other, in an order that cycles through a balanced Latin square. The paired ratios are taken within each round; *on / off* is the sum of the two starter-on throughputs over the sum of the two starter-off ones. Load average (\`/proc/loadavg\`) at the start: $LOAD_START; at the end: $LOAD_END."
	echo
	echo "\`GET /api/products\` at level 0 (every tier live); each block: mean requests/s over its rounds, and the mean of its paired ratios:"
	echo
	RATIOS=(starter-on+starter-on-2,starter-off+starter-off-2 starter-on-2,starter-on starter-off-2,starter-off)
	RATIO_TITLES=("on / off" "on-2 / on" "off-2 / off")
	block_table overhead starter-on starter-on-2 starter-off starter-off-2
	echo
	block_ratio_table overhead starter-on+starter-on-2,starter-off+starter-off-2 starter-on-2,starter-on starter-off-2,starter-off \
		starter-on,starter-off starter-on-2,starter-off-2
	echo
	echo "<details><summary>Every round (requests/s, p50 / p90 / p99 ms)</summary>"
	echo
	round_table overhead starter-on starter-on-2 starter-off starter-off-2
	echo
	echo "</details>"
	echo
	echo "$AA_NOTE"
	echo
	if [[ -n $PROFILER_LIB ]]; then
		echo "**The starter's own work.** async-profiler 4.1 attached to starter-on after the rounds, for ${PROFILE_SECONDS} s of the same load (\`event=itimer\`, 1 ms): $PROFILE_NOTE, in its own code or what it calls (setting the \`X-Degradation-Level\` header), not counting the rest of the filter chain. This share does not move with the speed of the machine; it leaves out what the filter's presence costs elsewhere (one more entry in Tomcat's filter chain, one more header written out, a different compilation of the chain by the JIT)."
	else
		echo "**The starter's own work** (a profile of starter-on under the same load): $PROFILE_NOTE."
	fi
} >"$RESULTS/load-overhead.md"
{
	echo "$APPLICATION to level 2 (\`POST /actuator/degradation {\"enabled\":true,\"level\":2}\`): \`GET /api/recommendations\` answered by its static fallback against the two cheapest live routes at that level, \`GET /api/products\` and \`GET /api/products/p-1\`, all three in every round. The cheaper live route, by mean requests/s over these rounds, is **\`${best#live:}\`**; the target compares the fallback with it, by the median of the paired ratios. $PLACE_NOTE After $WARMUP_NOTE, $FALLBACK_ROUNDS rounds, in an order that cycles through the six permutations; each cell: requests/s (p50 / p90 / p99 ms):"
	echo
	RATIOS=("static-fallback,live:/api/products" "static-fallback,live:/api/products/p-1") RATIO_TITLES=("fallback / products" "fallback / p-1")
	round_table fallback static-fallback live:/api/products live:/api/products/p-1
	echo
	ratio_table fallback "static-fallback,live:/api/products" "static-fallback,live:/api/products/p-1"
	echo
	echo "All three routes are served by the same application, so this part has no A/A check of its own; those of the overhead's table show how fine a difference a run resolves."
} >"$RESULTS/load-fallback.md"
((FALLBACK_ONLY)) || cat "$RESULTS/load-overhead.md"
cat "$RESULTS/load-fallback.md"
if [[ -f $DOC ]]; then
	((FALLBACK_ONLY)) || replace_section "$DOC" load-overhead "$RESULTS/load-overhead.md"
	replace_section "$DOC" load-fallback "$RESULTS/load-fallback.md"
	echo "wrote the load tables into $DOC" >&2
fi
