#!/usr/bin/env bash
# Installs, from Debian's packages, what the operator-facing tests drive for real (sample-app's
# PrometheusRulesIT, DashboardQueriesIT, StatusPageBrowserIT): Prometheus and promtool, Chromium
# and ChromeDriver. Idempotent: installs only what is missing. Debian 12, run as root. Under
# CI=true those tests fail when a tool is missing, so a broken install shows.
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"

missing=()
command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v chromedriver >/dev/null 2>&1 || missing+=(chromium-driver)

if ((${#missing[@]})); then
  echo "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The Debian package may start its own Prometheus where an init system runs; the tests start
# theirs on free ports, so one running on 9090 does no harm.
prometheus --version 2>&1 | head -1
chromium --version 2>/dev/null | head -1
chromedriver --version | head -1
