#!/usr/bin/env bash
# Measures the decision benchmark at each step of the route lookup's history, so that every clever
# step of the hot path has the benchmark that shows why (docs/performance.md, "How the lookup got
# here"). Each commit is exported with git archive into a temporary directory (no worktree), built
# there (benchmarks module and what it needs, tests skipped) and measured with the same JMH
# options at every step (1 fork, 3 x 1 s warm-up, 5 x 1 s measurement, -prof gc: the options the
# first steps were measured with, kept so that the rows compare); results go to
# benchmarks/results/decision-<commit>.json. About 4 minutes per step. Waits first, like run-all.sh, for a quiet machine.
#
# Usage: benchmarks/steps.sh [COMMIT...]   (default: the steps listed in DECISION_STEPS, lib.sh)
#        QUIET_WAIT=SECONDS bounds the wait for a quiet machine (default 1200)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib.sh

# The commits of DECISION_STEPS (lib.sh), unless others are given.
STEPS=("${DECISION_STEPS[@]%%|*}")
(($#)) && STEPS=("$@")
RESULTS=$PWD/benchmarks/results
wait_for_quiet_machine "${QUIET_WAIT:-1200}"
for commit in "${STEPS[@]}"; do
	dir=$(mktemp -d)
	git archive "$commit" | tar -x -C "$dir"
	(cd "$dir" && ./mvnw -q -B -pl benchmarks -am package -DskipTests)
	echo "measuring $commit (load average $(load_average))" >&2
	java -jar "$dir/benchmarks/target/benchmarks.jar" DecisionBenchmark -f 1 -wi 3 -w 1s -i 5 -r 1s -prof gc \
		-rf json -rff "$RESULTS/decision-$commit.json" >"$dir/jmh.log"
	echo "$commit $(cat /proc/loadavg)" >>"$RESULTS/steps-loadavg.txt"
	rm -rf "$dir"
done
