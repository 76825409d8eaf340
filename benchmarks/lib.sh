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
