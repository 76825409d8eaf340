#!/usr/bin/env bash
# Makes the status page's screenshots in docs/images with headless Chromium, from a running
# sample shop, so that the pictures in the docs show what the page really draws:
#   status-page-healthy.png   every dependency healthy, after a little traffic
#   status-page-incident.png  recommendations-api failing (its route shed) and an operator's
#                             switch override on best-effort for 15 minutes
#
# Usage:   sample-app/scripts/status-page-screenshots.sh [--no-build] [--output DIR]
# Needs:   a JDK 17+, curl, and Debian's chromium (apt-get install -y curl chromium)
# Network: 127.0.0.1 only: the browser resolves no other name. Time: about a minute after the
#          build; the shop is stopped on exit.
set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
JAR="$ROOT/sample-app/target/sample-app.jar"
OUTPUT="$ROOT/docs/images"
BUILD=true

while (($#)); do
	case "$1" in
		--no-build) BUILD=false ;;
		--output) OUTPUT=$2; shift ;;
		*) echo "usage: $0 [--no-build] [--output DIR]" >&2; exit 2 ;;
	esac
	shift
done

for tool in java curl chromium; do
	command -v "$tool" >/dev/null || { echo "screenshots: '$tool' is missing (apt-get install -y curl chromium; a JDK 17+)" >&2; exit 1; }
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/status-page-screenshots.XXXXXX")
cleanup() {
	local status=$?
	trap - EXIT INT TERM
	[[ -n ${SHOP:-} ]] && kill "$SHOP" 2>/dev/null || true
	wait 2>/dev/null || true
	if ((status != 0)); then
		echo "screenshots: failed; logs kept in $WORK" >&2
	else
		rm -rf "$WORK"
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'exit 143' INT TERM

if $BUILD; then
	(cd "$ROOT" && ./mvnw -B -ntp -q -pl sample-app -am package -DskipTests)
fi
mkdir -p "$OUTPUT"

# The sample's manifest with shorter timings, so that a failure is judged in about two seconds.
java -Xmx256m -XX:TieredStopAtLevel=1 -jar "$JAR" --server.port=0 --server.address=127.0.0.1 \
	--sample.health-check-interval-ms=300 --sample.timeout-ms=500 --sample.window-seconds=5 \
	--sample.hysteresis-seconds=5 --degradation.ui.refresh-interval=1s >"$WORK/shop.log" 2>&1 &
SHOP=$!
port="" deadline=$((SECONDS + 120))
until [[ -n $port ]]; do
	((SECONDS < deadline)) || { echo "screenshots: the shop did not start; see $WORK/shop.log" >&2; exit 1; }
	kill -0 "$SHOP" 2>/dev/null || { echo "screenshots: the shop exited; see $WORK/shop.log" >&2; exit 1; }
	sleep 0.2
	port=$(sed -n 's/.*Tomcat started on port \([0-9]*\).*/\1/p' "$WORK/shop.log" | head -1)
done
base="http://127.0.0.1:$port"

# Waits (at most 30 s) until the endpoint's JSON matches a pattern.
await_state() {
	local pattern=$1 deadline=$((SECONDS + 30))
	until curl -s --max-time 2 "$base/actuator/degradation" | grep -Eq "$pattern"; do
		((SECONDS < deadline)) || { echo "screenshots: the endpoint never matched $pattern" >&2; exit 1; }
		sleep 0.2
	done
}

traffic() {
	local i
	for ((i = 0; i < 10; i++)); do
		curl -s -o /dev/null --max-time 5 "$base/api/products"
		curl -s -o /dev/null --max-time 5 "$base/api/recommendations"
		curl -s -o /dev/null --max-time 5 -X POST -H 'Content-Type: application/json' \
			-d '{"name": "product-viewed"}' "$base/api/analytics/track"
	done
}

shoot() {
	chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync --disable-quic \
		--disable-default-apps --disable-extensions --host-resolver-rules='MAP * ~NOTFOUND, EXCLUDE 127.0.0.1' \
		--user-data-dir="$WORK/profile" --window-size=1280,1500 --virtual-time-budget=5000 \
		--screenshot="$OUTPUT/$1" "$base/actuator/degradation/ui" >>"$WORK/chromium.log" 2>&1
	[[ -s $OUTPUT/$1 ]] || { echo "screenshots: chromium made no $1; see $WORK/chromium.log" >&2; exit 1; }
	echo "screenshots: $OUTPUT/$1"
}

await_state '"recommendations-api":\{"state":"HEALTHY"'
traffic
shoot status-page-healthy.png

curl -s -o /dev/null -X PUT -H 'Content-Type: application/json' -d '{"mode": "failing"}' \
	"$base/demo/dependencies/recommendations-api"
curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -d '{"state": "off", "ttl": "15m"}' \
	"$base/actuator/degradation/switches/best-effort"
await_state '"recommendations-api":\{"state":"FAILED"'
traffic
shoot status-page-incident.png
