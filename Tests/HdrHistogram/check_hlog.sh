#!/usr/bin/env bash
# latency.hlog is read by HdrHistogram's own Python package: installs `hdrhistogram` from PyPI
# into .build/hdrh-venv (test-only, as Tests/Deploy does its tools), makes a run's report with the
# release binary and checks every interval against latency.csv (check_hlog.py).
# Usage: Tests/HdrHistogram/check_hlog.sh [--install-only]
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.build/hdrh-venv
# `installed` is written last: HistogramLogTests (run by `make test` while .ci/run installs this in
# the background) uses the venv only once it is complete.
if [ ! -f "$venv/installed" ] || ! "$venv/bin/python" -c 'import hdrh' >/dev/null 2>&1; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check hdrhistogram
    touch "$venv/installed"
fi
[ "${1:-}" = "--install-only" ] && exit 0
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
.build/release/deeplink-bench run --journeys 20000 --seed 3 --quiet --no-report --out "$out/run" > /dev/null
"$venv/bin/python" Tests/HdrHistogram/check_hlog.py "$out/run"
