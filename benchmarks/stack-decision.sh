#!/usr/bin/env bash
# Measures what the move of the request decision out of the servlet filter costs, in one run
# (StackDecisionBenchmark: the servlet filter as it was before, the servlet adapter of the shared
# decision, the reactive adapter), and writes the table 'jmh-stacks' of docs/performance.md with
# the ratios against the previous filter. Waits first (at most 10 minutes) for a quiet machine;
# the load average is written under the table either way (QUIET_WAIT=seconds changes the wait).
# About 4 minutes.
#
# Usage: benchmarks/stack-decision.sh [--render-only]
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib.sh
ensure_command jq jq

RESULT=benchmarks/results/stack-decision.json
if [[ ${1:-} != --render-only ]]; then
	./mvnw -q -B -pl benchmarks -am package -DskipTests
	wait_for_quiet_machine "${QUIET_WAIT:-600}"
	before=$(load_average)
	java -jar benchmarks/target/benchmarks.jar StackDecisionBenchmark -f 3 -wi 3 -w 1s -i 5 -r 1s -prof gc \
		-rf json -rff "$RESULT"
	echo "load average before: $before, after: $(load_average)" >benchmarks/results/stack-decision-loadavg.txt
fi

table=$(mktemp)
jq -r '
	def r: (. * 10 | round) / 10;
	def score(m; s): (map(select(.benchmark | endswith("." + m)) | select(.params.situation == s)) | .[0].primaryMetric);
	def alloc(m; s): (map(select(.benchmark | endswith("." + m)) | select(.params.situation == s)) | .[0].secondaryMetrics["gc.alloc.rate.norm"].score // 0 | round);
	. as $all
	| "| case | previous servlet filter (ns) | servlet adapter (ns) | servlet / previous | reactive adapter, less its exchange (ns) | B/op previous / servlet |",
	  "| --- | ---: | ---: | ---: | ---: | ---: |",
	  ( ["live", "shed-miss", "shed-hit"][] as $s
	  | ($all | score("previousServletFilter"; $s)) as $p
	  | ($all | score("servletAdapter"; $s)) as $n
	  | ($all | score("reactiveAdapter"; $s)) as $ra
	  | ($all | score("reactiveExchangeOnly"; $s)) as $re
	  | "| \($s) | \($p.score | r) ± \($p.scoreError | r) | \($n.score | r) ± \($n.scoreError | r) | \(($n.score / $p.score * 100 | round) / 100)x | \(($ra.score - $re.score) | r) ± \(($ra.scoreError + $re.scoreError) | r) | \($all | alloc("previousServletFilter"; $s)) / \($all | alloc("servletAdapter"; $s)) |" )
' "$RESULT" >"$table"
echo >>"$table"
echo "Measured with $(java -version 2>&1 | head -1); $(cat benchmarks/results/stack-decision-loadavg.txt)." >>"$table"
replace_section docs/performance.md jmh-stacks "$table"
rm -f "$table"
cat docs/performance.md | sed -n '/<!-- generated:jmh-stacks -->/,/<!-- \/generated:jmh-stacks -->/p'
