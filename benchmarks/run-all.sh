#!/usr/bin/env bash
# Regenerates every figure of docs/performance.md on this machine: the JMH benchmarks of the
# request path (JMH_ARGS below: 5 forks, 2 x 1 s warm-up, 3 x 1 s measurement, -prof gc), then
# the load test of the sample shop (benchmarks/load.sh), then the tables, the machine and the
# verdict on each target. Waits first (at most 20 minutes) for the 1-minute load average to drop
# below 1.0, because other work on a 2-core machine distorts every figure; the load average is
# recorded either way. Takes 55 to 80 minutes (the load test alone about 35).
#
# Usage: benchmarks/run-all.sh [--render-only | --skip-load | --load-only]
#   --render-only  rewrite the document from the results already in benchmarks/results
#   --skip-load    measure JMH only, keep the load test's results
#   --load-only    run the load test only, keep the JMH results
# LOAD_BLOCKS=N sets the blocks of the load test's overhead part, each with four new JVMs
# (default: load.sh's 6, about 35 minutes in all; its interval narrows with the square root of the
# blocks), LOAD_ROUNDS=N the rounds in each block (default 8).
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib.sh

DOC=docs/performance.md
RESULTS=benchmarks/results
# Five forks: the JIT compiles the lookup differently from one JVM to the next, and some forks
# settle markedly slower than others for their whole life (benchmarks/results/jmh.json has every
# fork's iterations); the machine's speed also drifts from minute to minute. Forks spread over
# several minutes average both, and the error across them shows it.
JMH_ARGS=(-f 5 -wi 2 -w 1s -i 3 -r 1s -prof gc)
JMH_INCLUDE='DecisionBenchmark|FallbackWriterBenchmark|FilterBenchmark'
MODE=${1:-}
LOAD_ARGS=(--no-build ${LOAD_BLOCKS:+--blocks "$LOAD_BLOCKS"} ${LOAD_ROUNDS:+--rounds "$LOAD_ROUNDS"})
ensure_command jq jq

if [[ $MODE == --load-only ]]; then
	package_modules sample-app
	wait_for_quiet_machine 1200
	# load.sh replaces its own lines (load.*) in run.properties and leaves the JMH ones.
	benchmarks/load.sh "${LOAD_ARGS[@]}"
elif [[ $MODE != --render-only ]]; then
	package_modules benchmarks,sample-app
	wait_for_quiet_machine 1200
	# The load test's own lines (load.*) survive a run that skips it.
	kept=$( [[ $MODE == --skip-load ]] && grep '^load\.' "$RESULTS/run.properties" || true)
	{
		[[ -z $kept ]] || echo "$kept"
		echo "jmh.command=java -jar benchmarks/target/benchmarks.jar '$JMH_INCLUDE' ${JMH_ARGS[*]}"
		echo "jmh.date=$(date -u +%Y-%m-%dT%H:%MZ)"
		echo "jmh.loadavg.start=$(cat /proc/loadavg)"
	} >"$RESULTS/run.properties"
	java -jar benchmarks/target/benchmarks.jar "$JMH_INCLUDE" "${JMH_ARGS[@]}" \
		-rf json -rff "$RESULTS/jmh.json" | tee "$RESULTS/jmh.log" | grep -E '^(Benchmark|Decision|Fallback|Filter)' || true
	echo "jmh.loadavg.end=$(cat /proc/loadavg)" >>"$RESULTS/run.properties"
	if [[ $MODE != --skip-load ]]; then
		# JMH keeps one core busy: let the load average settle again (at most 5 minutes).
		wait_for_quiet_machine 300
		# records load.date and its load averages in run.properties
		benchmarks/load.sh "${LOAD_ARGS[@]}"
	fi
	{
		echo "date=$(date -u +%Y-%m-%dT%H:%MZ)"
		echo "commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- degradation-autoconfigure benchmarks/src || echo ' (with uncommitted changes)')"
		echo "cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
		echo "nproc=$(nproc)"
		echo "memory=$(free -g | awk '/^Mem:/ { print $2 " GiB" }')"
		echo "java=$(java -version 2>&1 | tr '\n' ' ' | sed 's/ *$//')"
		echo "os=$(. /etc/os-release && echo "$PRETTY_NAME"), kernel $(uname -r)"
	} >>"$RESULTS/run.properties"
fi

prop() { grep -m1 "^$1=" "$RESULTS/run.properties" | cut -d= -f2-; }

# A pivot of the decision benchmark: a row per (paths, request), a column per number of routes.
decision_table() { # json
	jq -r '
		def fmt: if . >= 100 then (. * 10 | round / 10 | tostring) else (. * 100 | round / 100 | tostring) end;
		def alloc: .secondaryMetrics["gc.alloc.rate.norm"].score | if . < 0.5 then "0" else (round | tostring) end;
		[ .[] | select(.benchmark | endswith("DecisionBenchmark.decision")) ] as $all
		| "| paths | request | 10 routes | 100 routes | 1,000 routes | 10,000 routes | 10,000 / 10 | B/op (10 / 100 / 1,000 / 10,000) |",
		  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
		  ( [ "literal", "pattern" ][] as $kind | [ "hit", "miss" ][] as $request
		    | [ $all[] | select(.params.kind == $kind and .params.request == $request) ]
		    | sort_by(.params.routes | tonumber) as $rows
		    | "| \($kind) | \($request) | "
		      + ([ $rows[] | "\(.primaryMetric.score | fmt) ± \(.primaryMetric.scoreError | fmt)" ] | join(" | "))
		      + " | \(($rows[-1].primaryMetric.score / $rows[0].primaryMetric.score) | fmt)x | "
		      + ([ $rows[] | alloc ] | join(" / ")) + " |" )' "$1"
}

# One row per step of the lookup's history (benchmarks/steps.sh) and one for now: ns/op and B/op
# of every (paths, request) at 100 and at 10,000 routes.
steps_table() { # one row per DECISION_STEPS entry (lib.sh) that has been measured
	echo "| step | routes | literal hit | literal miss | pattern hit | pattern miss |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: |"
	local entry commit json now
	for entry in "${DECISION_STEPS[@]}"; do
		commit=${entry%%|*} now=""
		json=$RESULTS/decision-$commit.json
		[[ $entry == "${DECISION_STEPS[-1]}" ]] && now="now, "
		[[ -f $json ]] || continue
		jq -r --arg step "${entry#*|} ($now\`$commit\`)" '
			def fmt: if . >= 100 then (round | tostring) else (. * 10 | round / 10 | tostring) end;
			def cell: "\(.primaryMetric.score | fmt) ns, \(.secondaryMetrics["gc.alloc.rate.norm"].score | if . < 0.5 then 0 else round end) B";
			[ .[] | select(.benchmark | endswith("DecisionBenchmark.decision")) ] as $d
			| [ "100", "10000" ][] as $routes
			| "| \($step) | \($routes) | "
			  + ([ [ "literal", "pattern" ][] as $k | [ "hit", "miss" ][] as $r
			       | $d[] | select(.params.kind == $k and .params.request == $r and .params.routes == $routes) | cell ]
			     | join(" | ")) + " |"' "$json"
	done
}

fallback_table() { # json
	jq -r '
		def fmt: (. * 100 | round / 100 | tostring);
		"| response | fallback | ns/op | B/op |", "| --- | --- | ---: | ---: |",
		( .[] | select(.benchmark | contains("FallbackWriterBenchmark"))
		  | "| \(.benchmark | split(".") | last | if . == "noOpResponse" then "no-op (writer only)" else "MockHttpServletResponse" end) | \(.params.fallback) | \(.primaryMetric.score | fmt) ± \(.primaryMetric.scoreError | fmt) | \(.secondaryMetrics["gc.alloc.rate.norm"].score | if . < 0.5 then "0" else (round | tostring) end) |" )' "$1"
}

# The whole filter against a pass-through filter, per situation: ns/op, B/op and the difference.
filter_table() { # json
	jq -r '
		def fmt: (. * 10 | round / 10 | tostring);
		def alloc: .secondaryMetrics["gc.alloc.rate.norm"].score | if . < 0.5 then "0" else (round | tostring) end;
		[ .[] | select(.benchmark | contains("FilterBenchmark")) ] as $f
		| "| situation | `DegradationFilter` ns/op | pass-through filter ns/op | difference ns | B/op (degradation / pass-through) |",
		  "| --- | ---: | ---: | ---: | ---: |",
		  ( [ "live", "shed-miss", "shed-hit" ][] as $s
		    | ($f[] | select(.params.situation == $s and (.benchmark | endswith("degradationFilter")))) as $d
		    | ($f[] | select(.params.situation == $s and (.benchmark | endswith("passThroughFilter")))) as $p
		    | "| \($s) | \($d.primaryMetric.score | fmt) ± \($d.primaryMetric.scoreError | fmt) | \($p.primaryMetric.score | fmt) ± \($p.primaryMetric.scoreError | fmt) | \(($d.primaryMetric.score - $p.primaryMetric.score) | fmt) | \($d | alloc) / \($p | alloc) |" )' "$1"
}

targets_table() {
	local json=$RESULTS/jmh.json tsv=$RESULTS/load.tsv live n means median mean low high overhead overhead_verdict control fallback fallback_met
	# The load figures: the mean of each block's paired ratios (each block with new JVMs), their
	# mean and its 95 % interval over the blocks (lib.sh).
	read -r n mean low high < <(block_ratio "$tsv" overhead starter-on+starter-on-2 starter-off+starter-off-2)
	overhead=$(awk -v n="$n" -v m="$mean" -v l="$low" -v h="$high" 'BEGIN { printf "on / off %.3f (95 %% interval over %d blocks %.3f to %.3f)", m, n, l, h }')
	# Three answers, not two: an interval that spans 0.98 neither meets nor misses the target.
	overhead_verdict=$(awk -v l="$low" -v h="$high" 'BEGIN {
		if (l == "nan") print "**not measured**"
		else if (l + 0 >= 0.98) print "met"
		else if (h + 0 < 0.98) print "**missed**"
		else print "**not resolved**: the interval spans 0.98" }')
	# The A/A checks: two JVMs of each configuration, over the same blocks. When they differ, the
	# blocks have not averaged the JVMs' luck out, and the on / off interval is no evidence either
	# way; the verdict says so.
	local aa_differ=0 config separator=""
	control="A/A checks (two JVMs of one configuration, the resolution of the run): "
	for config in on off; do
		read -r n mean low high < <(block_ratio "$tsv" overhead "starter-$config-2" "starter-$config")
		control+=$(awk -v c="$config" -v s="$separator" -v m="$mean" -v l="$low" -v h="$high" 'BEGIN { printf "%s%s-2 / %s %.3f (%.3f to %.3f)", s, c, c, m, l, h }')
		awk -v l="$low" -v h="$high" 'BEGIN { exit !(l == "nan" || l + 0 > 1 || h + 0 < 1) }' && aa_differ=1
		separator=", "
	done
	if ((aa_differ)) && [[ $overhead_verdict != "**not measured**" ]]; then
		overhead_verdict="**not resolved**: two identical configurations differed over the blocks (an A/A interval excludes 1), so the on / off interval does not tell the starter from the JVMs' luck"
	fi
	if [[ -n $(prop load.profile.samples) ]]; then
		control+=$(awk -v own="$(prop load.profile.own)" -v all="$(prop load.profile.samples)" 'BEGIN { printf "; the starter'"'"'s own code, profiled: %.2f %% of the request threads'"'"' CPU", 100 * own / all }')
	fi
	# The cheaper live route: the one with the most requests/s over the rounds.
	live=$(cheaper_live_route "$tsv")
	read -r n means median mean low high < <(paired_ratio "$tsv" fallback static-fallback "$live")
	fallback=$(awk -v r="$means" -v m="$mean" -v l="$low" -v h="$high" -v live="${live#live:}" 'BEGIN { printf "against %s, the cheaper live route: ratio of the means %.3f; mean paired ratio %.3f (95 %% interval %.3f to %.3f)", live, r, m, l, h }')
	fallback_met=$(awk -v r="$means" 'BEGIN { print (r + 0 >= 1.0 && r != "nan") ? "true" : "false" }')
	jq -r --arg overhead "$overhead; $control" --arg fallback "$fallback" \
		--arg overheadVerdict "$overhead_verdict" --argjson fallbackMet "$fallback_met" '
		def fmt: (. * 10 | round / 10 | tostring);
		def verdict(ok): if ok then "met" else "**missed**" end;
		[ .[] | select(.benchmark | endswith("DecisionBenchmark.decision")) ] as $d
		| ([ $d[] | select(.params.routes == "100") | .primaryMetric.score ] | max) as $at100
		| ([ $d[] | select(.params.request == "miss") | .primaryMetric.score ] | max) as $miss
		| ([ [ "literal", "pattern" ][] as $k | [ "hit", "miss" ][] as $r
		     | [ $d[] | select(.params.kind == $k and .params.request == $r) ] | sort_by(.params.routes | tonumber)
		     | .[-1].primaryMetric.score / .[0].primaryMetric.score ] | max) as $growth
		| ([ $d[] | .secondaryMetrics["gc.alloc.rate.norm"].score ]) as $alloc
		| ([ $d[] | select(.params.kind == "literal") | .secondaryMetrics["gc.alloc.rate.norm"].score ] | max) as $literalAlloc
		| "| target | measured | verdict |", "| --- | --- | --- |",
		  "| decision <= 50 ns at 100 routes (hit and miss, literal and pattern) | slowest of the four: \($at100 | fmt) ns | \(verdict($at100 <= 50)) |",
		  "| decision <= 50 ns for a request that matches no route (any size) | slowest miss: \($miss | fmt) ns | \(verdict($miss <= 50)) |",
		  "| growth no worse than logarithmic from 10 to 10,000 routes (log 10,000 / log 10 = 4x) | worst 10,000 / 10 ratio: \($growth | fmt)x | \(verdict($growth <= 4)) |",
		  "| no allocation in the decision (~0 B/op) | literal manifests: \($literalAlloc | round) B/op; all rows: \($alloc | min | round) to \($alloc | max | round) B/op | \(verdict(($alloc | max) < 1)) |",
		  "| starter on keeps >= 98 % of the throughput of the starter off (two JVMs of each, new ones in every block; judged only when both A/A intervals contain 1, and then met when the whole 95 % interval over the blocks of on / off is >= 0.98, missed when it is all below) | \($overhead) | \($overheadVerdict) |",
		  "| static fallback at least as fast as the cheapest live route (met when the ratio of the means is >= 1) | \($fallback) | \(verdict($fallbackMet)) |"
	' "$json"
}

machine_section() {
	cat <<MD
| | |
| --- | --- |
| measured | JMH $(prop jmh.date || prop date), commit \`$(prop commit)\`; load test $(prop load.date) |
| CPU | $(prop cpu), \`nproc\` = $(prop nproc) |
| memory | $(prop memory) |
| JVM | \`$(prop java)\` |
| OS | $(prop os) |
| load average (\`/proc/loadavg\`) | JMH: $(prop jmh.loadavg.start) at the start, $(prop jmh.loadavg.end) at the end; load test: $(prop load.loadavg.start) at the start, $(prop load.loadavg.end) at the end |
| JMH | \`$(prop jmh.command | sed "s/|/\\\\|/g") -rf json\` |
MD
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
machine_section >"$tmp/machine"
decision_table "$RESULTS/jmh.json" >"$tmp/after"
decision_table "$RESULTS/decision-before.json" >"$tmp/before"
fallback_table "$RESULTS/jmh.json" >"$tmp/fallback"
filter_table "$RESULTS/jmh.json" >"$tmp/filter"
targets_table >"$tmp/targets"
replace_section "$DOC" machine "$tmp/machine"
replace_section "$DOC" jmh-decision "$tmp/after"
replace_section "$DOC" jmh-before "$tmp/before"
replace_section "$DOC" jmh-fallback "$tmp/fallback"
replace_section "$DOC" jmh-filter "$tmp/filter"
steps_table >"$tmp/steps"
replace_section "$DOC" jmh-steps "$tmp/steps"
replace_section "$DOC" targets "$tmp/targets"
replace_section "$DOC" load-overhead "$RESULTS/load-overhead.md"
replace_section "$DOC" load-fallback "$RESULTS/load-fallback.md"
echo "rewrote $DOC" >&2
