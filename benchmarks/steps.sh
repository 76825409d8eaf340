#!/usr/bin/env bash
# Measures the decision benchmark at each step of the route lookup's history, so that every clever
# step of the hot path has the benchmark that shows why (docs/performance.md, "How the lookup got
# here"). Each commit is exported with git archive into a temporary directory (no worktree), built
# there (benchmarks module and what it needs, tests skipped) and measured with the same JMH
# options at every step (1 fork, 3 x 1 s warm-up, 5 x 1 s measurement, -prof gc: the options the
# first steps were measured with, kept so that the rows compare); results go to
# benchmarks/results/decision-<commit>.json. About 4 minutes per step. Waits first, like run-all.sh, for a quiet machine.
#
# Usage: benchmarks/steps.sh [COMMIT...]   (default: the steps listed in STEPS below)
#        QUIET_WAIT=SECONDS bounds the wait for a quiet machine (default 1200)
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/lib.sh

# commit: what the lookup was at that commit
STEPS=(
	91d51fa # linear scan, in specificity order (the route table before this work)
	6cd1255 # trie by literal start, every candidate confirmed by PathPattern.matches
	56675f3 # + patterns without syntax confirmed by the walk
	da1651b # + the shared separator recognized by identity
	67ae3ab # + the common pattern shapes confirmed by an allocation-free tail, not PathPattern.matches
	738ee5d # + segment children in a table that compares hashes first, walk without recursion
	6966f5b # + path elements handled as Object on the hot path
	c3bb4f3 # + the walk back up visits only nodes that hold patterns
	a8264a4 # + the method's routes found by a string switch, not Map.copyOf
	8f80cd1 # + a tail tests the number of path elements and its literal segments first (now)
)
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
