#!/usr/bin/env bash
# Browser test of report.html (issue 14): a small release run writes its report, headless Chromium
# renders it, check_report.py fails on a near-blank page, console messages, a missing chart, or a
# clipped or overlapping label (issue 35). 200,000 journeys: enough for the latency spectrum's
# 99.999% and 99.9999% ticks, whose labels once overlapped.
# README_SCREENSHOT=Docs/images/report.png also writes the README's picture of the page there.
# Needs the release binary (`make build-release`) and chromium (`.ci/run` installs it when missing).
set -euo pipefail
cd "$(dirname "$0")/../.."
out=.build/browser-check
rm -rf "$out"
mkdir -p "$out"
.build/release/deeplink-bench run --journeys 200000 --seed 1 --threads 2 --quiet --out "$out/run" >/dev/null
python3 Tests/Browser/check_report.py "$out/run/report.html" "$out/report.png"
