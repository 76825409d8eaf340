# Functions shared by run-all.sh and load.sh. Source it; it runs nothing by itself.

# Install a Debian package when its command is missing (the benchmarks need root for that, as on
# the project's machines).
ensure_command() { # command package
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "installing $2 (apt-get install -y $2)" >&2
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$2" >/dev/null
	fi
}

# Replace the text between '<!-- generated:NAME -->' and '<!-- /generated:NAME -->' in FILE with
# the content of CONTENT_FILE. The markers stay; everything between them is rewritten.
replace_section() { # file name content_file
	local file=$1 name=$2 content=$3 tmp
	grep -q "<!-- generated:$name -->" "$file" || { echo "no section '$name' in $file" >&2; return 1; }
	tmp=$(mktemp)
	awk -v name="$name" -v content="$content" '
		$0 == "<!-- generated:" name " -->" { print; while ((getline line < content) > 0) print line; skip = 1; next }
		$0 == "<!-- /generated:" name " -->" { skip = 0 }
		!skip { print }
	' "$file" >"$tmp"
	mv "$tmp" "$file"
}

# Package the given modules with what is on disk now. The samples' executable jars are removed
# first, so that each is made anew: once a package run left the WebFlux sample's jar with the
# starter of a build three hours older, and a benchmark measured that.
package_modules() { # modules (Maven -pl list)
	rm -f sample-app/target/sample-app.jar sample-reactive/target/sample-reactive.jar
	./mvnw -q -B -ntp -pl "$1" -am package -DskipTests
}

# The 1-minute load average.
load_average() {
	cut -d' ' -f1 /proc/loadavg
}

# Wait, at most MAX_SECONDS, polling every 30 s, until the 1-minute load average is below 1.0:
# other work on a 2-core machine distorts every figure.
wait_for_quiet_machine() { # max_seconds
	local deadline=$((SECONDS + $1))
	while awk -v l="$(load_average)" 'BEGIN { exit !(l >= 1.0) }'; do
		if ((SECONDS >= deadline)); then
			echo "load average still $(load_average) after $1 s: measuring anyway (recorded)" >&2
			return 0
		fi
		echo "load average $(load_average) >= 1.0, waiting (at most $((deadline - SECONDS)) s more)" >&2
		sleep 30
	done
	echo "load average $(load_average): measuring" >&2
}

# The common part of the awk programs of paired_ratio and block_ratio: the members of the groups a
# and b (inA, inB; na and nb of them), and half_width(x, n, mean), the half width of the 95 %
# t-interval of the mean of x[1..n] (Student's t: a table up to 30 degrees of freedom, a series
# beyond).
RATIO_AWK='
	function t975(df, z) {
		if (df <= 30) return T[df]
		z = 1.959964
		return z + (z ^ 3 + z) / (4 * df) + (5 * z ^ 5 + 16 * z ^ 3 + 3 * z) / (96 * df ^ 2)
	}
	function half_width(x, n, mean,   i, ss) {
		for (i = 1; i <= n; i++) ss += (x[i] - mean) ^ 2
		return t975(n - 1) * sqrt(ss / (n - 1)) / sqrt(n)
	}
	BEGIN { split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", T, " ") }
	BEGIN { na = split(a, A, "+"); nb = split(b, B, "+"); for (i = 1; i <= na; i++) inA[A[i]] = 1; for (i = 1; i <= nb; i++) inB[B[i]] = 1 }
'

# Paired ratios of a load.sh section (benchmarks/results/load.tsv: one line per measurement,
# "section round position label requests/s p50 p90 p99 requests errors block"). For every round
# that measured both LABEL_A and LABEL_B, the ratio A / B of that round; prints
#   n ratio-of-means median mean low high
# where ratio-of-means is mean(A) / mean(B) over those rounds, median and mean are of the paired
# ratios, and low..high is the 95 % t-interval of their mean (n - 1 degrees of freedom; low and
# high are "nan" when n < 2; six decimals, so that the tables round once). A or B may be a group
# "X+Y" whose requests/s are summed (a round counts only when every member was measured). awk
# only, so that a fresh Debian machine needs nothing more.
paired_ratio() { # tsv section label_a label_b
	awk -v section="$2" -v a="$3" -v b="$4" "$RATIO_AWK"'
		$1 == section && ($4 in inA) { va[$2] += $5; ca[$2]++; rounds[$2] = 1 }
		$1 == section && ($4 in inB) { vb[$2] += $5; cb[$2]++; rounds[$2] = 1 }
		END {
			for (r in rounds) if (ca[r] == na && cb[r] == nb && vb[r] > 0) {
				x[++n] = va[r] / vb[r]; sa += va[r]; sb += vb[r]; sum += x[n]
			}
			if (n == 0) { print 0, "nan", "nan", "nan", "nan", "nan"; exit }
			for (i = 2; i <= n; i++) { v = x[i]; for (j = i - 1; j >= 1 && x[j] > v; j--) x[j + 1] = x[j]; x[j + 1] = v }
			median = (n % 2) ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
			mean = sum / n
			if (n < 2) { printf "%d %.6f %.6f %.6f nan nan\n", n, sa / sb, median, mean; exit }
			half = half_width(x, n, mean)
			printf "%d %.6f %.6f %.6f %.6f %.6f\n", n, sa / sb, median, mean, mean - half, mean + half
		}' "$1"
}

# Like paired_ratio, but every block of rounds (the last field of load.tsv: the rounds measured by
# the same JVMs, started afresh for each block) counts once, as the mean of its paired ratios.
# Prints
#   blocks mean low high
# the mean of the block means and its 95 % t-interval over the blocks (blocks - 1 degrees of
# freedom; "nan" when fewer than 2). Each JVM's luck lasts its whole life, so it is the same in
# every round of a block; only an interval over blocks, each with new JVMs, covers it.
block_ratio() { # tsv section label_a label_b
	awk -v section="$2" -v a="$3" -v b="$4" "$RATIO_AWK"'
		$1 == section { block[$2] = $NF }
		$1 == section && ($4 in inA) { va[$2] += $5; ca[$2]++ }
		$1 == section && ($4 in inB) { vb[$2] += $5; cb[$2]++ }
		END {
			for (r in block) if (ca[r] == na && cb[r] == nb && vb[r] > 0) {
				k = block[r]; sum[k] += va[r] / vb[r]; count[k]++
			}
			for (k in sum) { x[++n] = sum[k] / count[k]; total += x[n] }
			if (n == 0) { print 0, "nan", "nan", "nan"; exit }
			mean = total / n
			if (n < 2) { printf "%d %.6f nan nan\n", n, mean; exit }
			half = half_width(x, n, mean)
			printf "%d %.6f %.6f %.6f\n", n, mean, mean - half, mean + half
		}' "$1"
}

# Set KEY=VALUE in a properties FILE (benchmarks/results/run.properties), replacing an earlier value.
set_property() { # file key value
	local tmp
	tmp=$(mktemp)
	{ grep -v "^$2=" "$1" 2>/dev/null || true; echo "$2=$3"; } >"$tmp"
	mv "$tmp" "$1"
}

# The live route of the fallback rounds with the most requests/s on average ("live:<path>").
cheaper_live_route() { # tsv
	awk '$1 == "fallback" && $4 ~ /^live:/ { sum[$4] += $5; n[$4]++ }
		END { for (k in sum) if (sum[k] / n[k] > top) { top = sum[k] / n[k]; best = k }; print best }' "$1"
}

# The steps of the route lookup's history, oldest first, as "commit|what the lookup became at that
# commit" (Markdown): steps.sh measures each, run-all.sh tabulates them; the last is the lookup now.
DECISION_STEPS=(
	"91d51fa|linear scan"
	"6cd1255|trie, every candidate confirmed by \`PathPattern.matches\`"
	"56675f3|+ literal patterns confirmed by the walk"
	"da1651b|+ separator recognized by identity"
	"67ae3ab|+ common pattern shapes confirmed by the tail, not \`PathPattern.matches\`"
	"738ee5d|+ hashed child table, no recursion"
	"6966f5b|+ path elements as \`Object\` on the hot path"
	"c3bb4f3|+ the walk back up skips nodes without patterns"
	"a8264a4|+ the method's routes found by a string switch, not \`Map.copyOf\`"
	"8f80cd1|+ a tail tests the path's length and its literal segments first"
)
