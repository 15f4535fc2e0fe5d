#!/usr/bin/env bash
# Browser test of report.html (issue 14): a small release run writes its report, headless Chromium
# renders it, check_report.py fails on a near-blank page, console messages or a missing chart.
# Needs the release binary (`make build-release`) and chromium (`.ci/run` installs it when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build/browser-check
rm -rf "$out"
mkdir -p "$out"
.build/release/deeplink-bench run --journeys 20000 --seed 1 --threads 2 --quiet --out "$out/run" >/dev/null
python3 Tests/Browser/check_report.py "$out/run/report.html" "$out/report.png"
