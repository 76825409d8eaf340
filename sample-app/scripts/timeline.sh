#!/usr/bin/env bash
# Measures what the sample shop does when a dependency breaks, with the manifest's real timings,
# and writes the timeline as Markdown (docs/sample-timeline.md by default).
#
# For each scenario (recommendations-api FAILING, HANGING, REFUSING, SLOW) it starts a fresh
# sample jar on a free loopback port, waits until the starter's probe window of the dependency is
# full of healthy results, breaks the dependency through the demo API, waits for the degraded
# answer on /api/recommendations, restores the dependency and waits until the shed level is back
# to 0 (one tier per hysteresis) and the route answers live again. Meanwhile it polls
# /actuator/degradation every 200 ms and calls the route every 200 ms (without waiting for the
# previous call, as users would), and records each moment: dependency broken, first failed
# answer, first probe after the fault (and what it found), dependency FAILED, level raised,
# first degraded answer, dependency restored, first healthy probe, dependency HEALTHY, each step
# down, first live answer. A route still not shed after a full window plus four probe cycles is
# recorded as such, with what the endpoint shows, and the scenario goes on with the restore.
#
# The scenarios run side by side, each on its own instance of the shop, so that each starts at
# level 0 and the whole run stays under its time limit (full recovery alone takes two
# hysteresis periods, 3 minutes with the sample's defaults).
#
# Usage:   sample-app/scripts/timeline.sh [--no-build] [--output FILE]
# Needs:   a JDK 17+, curl and jq; on Debian or Ubuntu:
#            apt-get install -y curl jq
# Network: 127.0.0.1 only. Time: about 5 minutes after the build, stopped at 8 minutes
#          (TIMELINE_LIMIT_SECONDS); every started shop is stopped on exit.
set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
JAR="$ROOT/sample-app/target/sample-app.jar"
MANIFEST="$ROOT/sample-app/src/main/resources/degradation-manifest.yaml"
OUTPUT="$ROOT/docs/sample-timeline.md"
DEPENDENCY=recommendations-api
ROUTE=/api/recommendations
POLL_SECONDS=0.2
SCENARIOS=(failing hanging refusing slow)
LIMIT_SECONDS=${TIMELINE_LIMIT_SECONDS:-480}
BUILD=true
COMMAND="sample-app/scripts/timeline.sh${*:+ $*}"

while (($#)); do
	case "$1" in
		--no-build) BUILD=false ;;
		--output) OUTPUT=$2; shift ;;
		*) echo "usage: $0 [--no-build] [--output FILE]" >&2; exit 2 ;;
	esac
	shift
done

for tool in java curl jq; do
	command -v "$tool" >/dev/null || { echo "timeline: '$tool' is missing (apt-get install -y curl jq; a JDK 17+)" >&2; exit 1; }
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/sample-timeline.XXXXXX")

# Stops every shop and poller this run started, whatever ends it (success, error, limit, ^C).
cleanup() {
	local status=$?
	trap - EXIT INT TERM
	local pidfile
	for pidfile in "$WORK"/*.pid; do
		[[ -e $pidfile ]] && kill "$(cat "$pidfile")" 2>/dev/null || true
	done
	[[ -n ${WATCHDOG:-} ]] && kill "$WATCHDOG" 2>/dev/null || true
	wait 2>/dev/null || true
	if ((status != 0)); then
		echo "timeline: failed; logs kept in $WORK" >&2
	else
		rm -rf "$WORK"
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'exit 143' INT TERM

# Sets NOW to the time in epoch ms without starting a process, for the loops that run often.
stamp() {
	local micros=${EPOCHREALTIME/./}
	NOW=$((micros / 1000))
}

log() {
	printf '%s [%s] %s\n' "$(date -u +%H:%M:%S)" "$1" "$2" >&2
}

# The manifest's default for a placeholder such as ${sample.window-seconds:30}.
manifest_default() {
	sed -n "s/.*\${sample\.$1:\([0-9.]*\)}.*/\1/p" "$MANIFEST" | head -1
}

if $BUILD; then
	log build "./mvnw -q -B -pl sample-app -am package -DskipTests"
	(cd "$ROOT" && ./mvnw -q -B -pl sample-app -am package -DskipTests)
fi
[[ -f $JAR ]] || { echo "timeline: $JAR is missing; run without --no-build" >&2; exit 1; }

INTERVAL_MS=$(manifest_default health-check-interval-ms)
TIMEOUT_MS=$(manifest_default timeout-ms)
WINDOW_SECONDS=$(manifest_default window-seconds)
MIN_SAMPLES=$(manifest_default min-samples)
HYSTERESIS_SECONDS=$(manifest_default hysteresis-seconds)
# A full window holds this many results of a healthy dependency: waiting for it makes every
# scenario start from the steady state a long-running shop is in.
STEADY_SAMPLES=$((WINDOW_SECONDS * 1000 / INTERVAL_MS))
# How long a scenario waits for the degraded answer before it records that none came: a full
# window (the healthy results age out) plus four probe cycles, each a probe that may take its
# timeout and the interval after it; far more than the starter needs when it works as designed.
DETECT_LIMIT_SECONDS=$((WINDOW_SECONDS + 4 * (INTERVAL_MS + TIMEOUT_MS) / 1000))

# An ISO-8601 instant of the endpoints (2026-11-29T14:05:52.337123Z) as epoch milliseconds.
read -r -d '' MS_DEF <<'JQ' || true
def ms: if . == null then "-" else capture("^(?<s>[^.Z]+)(\\.(?<f>[0-9]+))?Z$")
	| ((.s + "Z") | fromdateiso8601) * 1000 + (((.f // "") + "000")[0:3] | tonumber) | floor end;
JQ
# Reads the endpoint into one tab-separated line; instants become epoch milliseconds and empty
# values '-', so that 'read' keeps every field in place.
read -r -d '' STATE_FILTER <<'JQ' || true
.dependencies[$d] as $dep | ($dep.lastProbe // {}) as $p
| [ .level, (.changedAt | ms), .reason, (if (.shedTiers | length) == 0 then "none" else (.shedTiers | join(", ")) end),
    $dep.state, $dep.errorRate, $dep.samples,
    ($p.outcome // "-"), (if $p.healthy == null then "-" else ($p.healthy | tostring) end),
    ($p.detail // "-"), ($p.latencyMs // "-"), ($p.at | ms) ]
| map(tostring) | @tsv
JQ

# One scenario, on its own shop. Writes $WORK/<mode>.events: epoch ms, key, event, level, reason.
scenario() {
	local mode=$1
	local name=$mode
	local events="$WORK/$name.events" routes="$WORK/$name.routes" applog="$WORK/$name.log"
	: >"$events"
	: >"$routes"
	trap 'log "$name" "failed at line $LINENO"' ERR

	# Four shops side by side on a small machine: a small heap, one GC thread, and no C2 compiler,
	# whose work at startup would only slow the other shops down.
	java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$JAR" --server.port=0 --server.address=127.0.0.1 \
		>"$applog" 2>&1 &
	echo $! >"$WORK/$name.app.pid"
	local port="" deadline=$((SECONDS + 180))
	until [[ -n $port ]]; do
		((SECONDS < deadline)) || { log "$name" "the shop did not start; see $applog"; return 1; }
		kill -0 "$(cat "$WORK/$name.app.pid")" 2>/dev/null || { log "$name" "the shop exited; see $applog"; return 1; }
		sleep 0.2
		port=$(sed -n 's/.*Tomcat started on port \([0-9]*\).*/\1/p' "$applog" | head -1)
	done
	local base="http://127.0.0.1:$port"
	log "$name" "shop on $base; waiting for a full window of healthy probes ($STEADY_SAMPLES)"
	# The first calls of each kind load classes; made now, they cannot slow the measured ones.
	curl -s -o /dev/null --max-time 30 "$base/demo/dependencies" || true
	curl -s -o /dev/null --max-time 30 "$base$ROUTE" || true

	local level changed reason tiers state rate samples outcome healthy detail latency probe_at
	poll() {
		local line
		line=$(curl -s --max-time 2 "$base/actuator/degradation" | jq -r --arg d "$DEPENDENCY" "$MS_DEF $STATE_FILTER") \
			|| return 1
		IFS=$'\t' read -r level changed reason tiers state rate samples outcome healthy detail latency probe_at <<<"$line"
	}
	deadline=$((SECONDS + WINDOW_SECONDS + 60))
	until poll && [[ $level == 0 && $state == HEALTHY ]] && ((samples >= STEADY_SAMPLES)); do
		((SECONDS < deadline)) || { log "$name" "no steady healthy window"; return 1; }
		sleep "$POLL_SECONDS"
	done

	# Every scenario breaks its dependency only once every shop is steady, so that no shop's
	# start slows down another's measurement.
	touch "$WORK/$name.steady"
	deadline=$((SECONDS + 180))
	while (($(find "$WORK" -name '*.steady' | wc -l) < ${#SCENARIOS[@]})); do
		((SECONDS < deadline)) || { log "$name" "the other shops never became steady"; return 1; }
		sleep 0.5
	done

	record() { # time key event level reason
		printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" >>"$events"
	}
	# Switches the dependency; prints when the switch took effect (the demo API's 'since').
	switch() { # mode
		local answer
		if ! answer=$(curl -sf --max-time 30 -X PUT -H 'Content-Type: application/json' \
			-d "{\"mode\": \"$1\"}" "$base/demo/dependencies/$DEPENDENCY"); then
			log "$name" "could not switch $DEPENDENCY to $1"
			return 1
		fi
		jq -r "$MS_DEF .since | ms" <<<"$answer"
	}

	# One call of the route, in plain bash over /dev/tcp: no process to start, so that calling
	# it five times a second in four shops does not load the machine it measures. Sets RESULT to
	# the status (000 when no answer came within 5 s) and whether X-Degraded was set.
	call_route() {
		local status=000 degraded="" line
		if exec 3<>"/dev/tcp/127.0.0.1/$port"; then
			printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$ROUTE" >&3
			if IFS= read -r -t 5 line <&3; then
				status=${line#* }
				status=${status%% *}
				while IFS= read -r -t 5 line <&3 && [[ $line != $'\r' ]]; do
					[[ ${line,,} == x-degraded:* ]] && degraded=true
				done
			fi
			exec 3<&-
		fi
		RESULT="$status;$degraded"
	}
	# Calls the route every 200 ms without waiting for the previous call, as users would: ms
	# before the call; ms when its answer was in; status; X-Degraded; seconds it took.
	(
		while :; do
			(
				stamp
				start=$NOW
				call_route
				stamp
				printf -v took '%d.%03d' $(((NOW - start) / 1000)) $(((NOW - start) % 1000))
				echo "$start;$NOW;$RESULT;$took" >>"$routes"
			) &
			sleep "$POLL_SECONDS"
		done
	) &
	echo $! >"$WORK/$name.routes.pid"
	sleep 1

	local last_level=$level last_state=$state last_poll fault restored="" first_probe="" first_ok_probe="" now at
	local poll_start
	fault=$(switch "$mode")
	last_poll=$fault
	record "$fault" fault "$DEPENDENCY switched to ${mode^^} (demo API)" "$level" \
		"PUT /demo/dependencies/$DEPENDENCY {\"mode\": \"$mode\"}"
	log "$name" "broken"

	local phase=broken
	deadline=$((SECONDS + DETECT_LIMIT_SECONDS))
	while :; do
		sleep "$POLL_SECONDS"
		stamp
		poll_start=$NOW
		poll || { ((SECONDS < deadline)) && continue; log "$name" "the endpoint does not answer"; return 1; }
		stamp
		now=$NOW
		if [[ -z $first_probe && $probe_at != - ]] && ((probe_at >= fault)); then
			first_probe=$probe_at
			record "$probe_at" first_probe "first probe of $DEPENDENCY after the fault" "$level" \
				"$outcome: $detail (${latency} ms)"
		fi
		if [[ -n $restored && -z $first_ok_probe && $healthy == true && $probe_at != - ]] && ((probe_at >= restored)); then
			first_ok_probe=$probe_at
			record "$probe_at" first_ok_probe "first healthy probe of $DEPENDENCY after the restore" "$level" \
				"$outcome: $detail (${latency} ms)"
		fi
		if [[ $state != "$last_state" ]]; then
			# Exact when the change came with a probe of this dependency since the last poll; else
			# when the endpoint's answer was in, at most one poll late.
			at=$now
			if [[ $probe_at != - ]] && ((probe_at > last_poll && probe_at <= now)); then at=$probe_at; fi
			record "$at" "dependency_$state" "$DEPENDENCY $last_state -> $state" "$level" \
				"error rate $rate over $samples probes; last probe $outcome ($detail, ${latency} ms)"
			last_state=$state
		fi
		if [[ $level != "$last_level" ]]; then
			record "$changed" "level_$level" "level $last_level -> $level (shed: $tiers)" "$level" "$reason"
			last_level=$level
		fi
		last_poll=$poll_start
		if [[ $phase == broken ]]; then
			local shed=false
			if [[ $level != 0 ]] && awk -F';' -v t="$fault" '$1 >= t && $4 == "true" { found = 1 } END { exit !found }' "$routes"; then
				shed=true
			elif ((SECONDS >= deadline)); then
				local last_probe_age="-"
				[[ $probe_at != - ]] && last_probe_age=$(awk -v a="$probe_at" -v n="$now" 'BEGIN { printf "%.1f", (n - a) / 1000 }')
				record "$now" not_shed "no degraded answer within $DETECT_LIMIT_SECONDS s; giving up" "$level" \
					"$DEPENDENCY is $state with $samples probes in the window; its last probe ended ${last_probe_age} s ago: $outcome ($detail, ${latency} ms)"
				log "$name" "not shed within $DETECT_LIMIT_SECONDS s"
				shed=true
			fi
			if $shed; then
				restored=$(switch healthy)
				record "$restored" restore "$DEPENDENCY switched back to HEALTHY (demo API)" "$level" \
					"PUT /demo/dependencies/$DEPENDENCY {\"mode\": \"healthy\"}"
				log "$name" "restored"
				phase=recovering
				deadline=$((SECONDS + 2 * HYSTERESIS_SECONDS + WINDOW_SECONDS + 60))
			fi
		elif [[ $level == 0 && $state == HEALTHY ]] \
			&& awk -F';' -v t="$restored" '$1 >= t && $3 == "200" && $4 != "true" { found = 1 } END { exit !found }' "$routes"; then
			log "$name" "level 0 and live again"
			break
		elif ((SECONDS >= deadline)); then
			log "$name" "not recovered in time"
			return 1
		fi
	done

	kill "$(cat "$WORK/$name.routes.pid")" 2>/dev/null || true
	rm -f "$WORK/$name.routes.pid"
	# Let the calls in flight finish (each at most 5 s) before reading what they got.
	sleep 5.5
	kill "$(cat "$WORK/$name.app.pid")" 2>/dev/null || true
	rm -f "$WORK/$name.app.pid"

	# What the route's callers got, from the call log, for calls made after the fault (times are
	# when an answer was in): the first degraded answer, the failed answers before it (or before
	# the restore, if the route was never shed), and the first live answer after the restore.
	local first_degraded shed_end
	first_degraded=$(awk -F';' -v t="$fault" '$1 >= t && $4 == "true" && (min == "" || $2 < min) { min = $2 }
		END { if (min != "") printf "%.0f", min }' "$routes")
	shed_end=${first_degraded:-$restored}
	awk -F';' -v t="$fault" -v e="$shed_end" '$1 >= t && $2 < e && $3 != "200" { n++; if (first == "" || $2 < first) { first = $2; status = $3; took = sprintf("%.2f", $5) } }
		END { if (n) printf "%.0f\t%s\t%s\t%d\n", first, status, took, n }' "$routes" | {
		IFS=$'\t' read -r at status took count || exit 0
		what="HTTP $status after ${took} s"
		[[ $status == 000 ]] && what="no answer within 5 s"
		record "$at" first_failed_answer "first failed answer on $ROUTE" "-" \
			"$what; $count answers failed $([[ -n $first_degraded ]] && echo "before the first degraded one" || echo "until the restore")"
	}
	if [[ -n $first_degraded ]]; then
		record "$first_degraded" first_degraded "first degraded answer on $ROUTE" "-" \
			"200 with X-Degraded: true, the manifest's static fallback"
	fi
	awk -F';' -v t="$restored" '$1 >= t && $3 == "200" && $4 != "true" && (min == "" || $2 < min) { min = $2; took = sprintf("%.2f", $5) }
		END { if (min != "") printf "%.0f\t%s\n", min, took }' "$routes" | {
		IFS=$'\t' read -r at took || exit 0
		record "$at" first_live "first live answer on $ROUTE after the restore" "-" \
			"200 without X-Degraded, from $DEPENDENCY (${took} s)"
	}
	log "$name" "done"
}

# Stops the whole run at the limit; when stopped itself, it stops its sleep too, so that nothing
# of this run outlives it.
(
	trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
	sleep "$LIMIT_SECONDS" &
	sleeper=$!
	wait "$sleeper" && { echo "timeline: stopped after $LIMIT_SECONDS s" >&2; kill -TERM $$; }
) >/dev/null &
WATCHDOG=$!
STARTED=$(date -u '+%Y-%m-%d %H:%M UTC')
LOAD=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
for mode in "${SCENARIOS[@]}"; do
	scenario "$mode" &
	echo $! >"$WORK/$mode.scenario.pid"
done
failed=0
for mode in "${SCENARIOS[@]}"; do
	wait "$(cat "$WORK/$mode.scenario.pid")" || failed=1
	rm -f "$WORK/$mode.scenario.pid"
done
((failed == 0)) || { echo "timeline: a scenario failed" >&2; exit 1; }

# Level in force at each event: events that do not know it take the last level change before them.
table() { # events file
	sort -t$'\t' -k1,1n "$1" | awk -F'\t' -v fault="$(awk -F'\t' '$2 == "fault" { print $1 }' "$1")" '
		BEGIN { level = 0 }
		$2 ~ /^level_/ { level = $4 }
		{ shown = ($4 == "-") ? level : $4
		  printf "| %.1f | %s | %s | %s |\n", ($1 - fault) / 1000, $3, shown, $5 }'
}

# Seconds from one event to another, or "-" if either is missing.
span() { # events file, from key, to key
	awk -F'\t' -v a="$2" -v b="$3" '$2 == a && !x { x = $1 } $2 == b && !y { y = $1 }
		END { if (x != "" && y != "") printf "%.1f", (y - x) / 1000; else printf "-" }' "$1"
}

failures_before_shed() {
	awk -F'\t' '$2 == "first_failed_answer" { split($5, p, "; "); sub(/ answers.*/, "", p[2]); print p[2]; found = 1 } END { if (!found) print 0 }' "$1"
}

mkdir -p "$(dirname "$OUTPUT")"
{
	echo "# Sample timeline: what happens when a dependency fails"
	echo
	echo "Generated by \`$COMMAND\` on $STARTED; numbers measured by that run, not written by hand."
	echo
	echo "- Machine: $(nproc) cores, load average at start $LOAD; $(java -version 2>&1 | head -2 | paste -sd ';' | sed 's/;/; /')"
	echo "- Manifest timings (the sample's defaults): a probe every ${INTERVAL_MS} ms, timeout ${TIMEOUT_MS} ms" \
		"($DEPENDENCY), window ${WINDOW_SECONDS} s, at least ${MIN_SAMPLES} results, failure threshold 0.4," \
		"recovery threshold 0.15, hysteresis ${HYSTERESIS_SECONDS} s. A slow dependency answers after 3 s."
	echo "- Each scenario ran on a fresh shop, broken once the window held ${STEADY_SAMPLES} healthy results;" \
		"the four ran side by side."
	echo "- Times are seconds since the dependency was broken. Level changes are the endpoint's \`changedAt\`;" \
		"probes are the endpoint's \`lastProbe.at\`; answers are from calls to \`$ROUTE\` made every" \
		"200 ms; a dependency's state change is exact when it came with its own probe, otherwise seen" \
		"within one 200 ms poll of \`/actuator/degradation\`."
	echo "- \"never within $DETECT_LIMIT_SECONDS s\": the route was not shed within a full window plus four probe" \
		"cycles; the row \"no degraded answer\" shows what the endpoint said about the dependency then."
	echo
	echo "## Summary"
	echo
	echo "| scenario | broken → FAILED | broken → first degraded answer | failed answers before | restored → HEALTHY | restored → first live answer | restored → level 0 |"
	echo "| --- | --- | --- | --- | --- | --- | --- |"
	for mode in "${SCENARIOS[@]}"; do
		f="$WORK/$mode.events"
		if grep -q $'\tnot_shed\t' "$f"; then
			echo "| $DEPENDENCY ${mode^^} | never within $DETECT_LIMIT_SECONDS s | never within $DETECT_LIMIT_SECONDS s" \
				"| $(failures_before_shed "$f") (all, until the restore) | - | $(span "$f" restore first_live) | - |"
		else
			echo "| $DEPENDENCY ${mode^^} | $(span "$f" fault dependency_FAILED) | $(span "$f" fault first_degraded)" \
				"| $(failures_before_shed "$f") | $(span "$f" restore dependency_HEALTHY) | $(span "$f" restore first_live)" \
				"| $(span "$f" restore level_0) |"
		fi
	done
	for mode in "${SCENARIOS[@]}"; do
		echo
		echo "## $DEPENDENCY ${mode^^}"
		echo
		echo "| elapsed (s) | event | level | reason |"
		echo "| --- | --- | --- | --- |"
		table "$WORK/$mode.events"
	done
} >"$OUTPUT"
log done "wrote $OUTPUT"
