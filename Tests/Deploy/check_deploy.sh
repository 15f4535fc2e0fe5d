#!/usr/bin/env bash
# Issue 17: the shipped sharded-run manifests (Deploy/) validated offline and their exact commands
# run here (check_deploy.py), then the same check on broken copies, each of which must fail: a
# wrong flag in the Job's command, a workflow matrix that skips a shard, a driver that runs one
# shard too few. Needs the release binary (`make build-release`); installs its PyPI tools (test
# dependencies only) into a virtual environment under .build/. `--install-only` stops after that
# (`.ci/run` fetches them in the background while it builds).
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.build/deploy-venv
if [ ! -x "$venv/bin/check-jsonschema" ] || [ ! -x "$venv/bin/kubernetes-validate" ]; then
    if ! python3 -m venv "$venv" >/dev/null 2>&1; then
        # Debian's python3 keeps venv in a package of its own.
        rm -rf "$venv"
        if [ "$(id -u)" != 0 ]; then
            echo "python3 cannot make a virtual environment; run: sudo apt-get install -y python3-venv" >&2
            exit 1
        fi
        apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y python3-venv
        python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check \
        kubernetes-validate==1.37.0 check-jsonschema==0.39.0 PyYAML==6.0.4
fi
if [ "${1:-}" = --install-only ]; then
    exit 0
fi
export PATH="$PWD/$venv/bin:$PATH"
bench=.build/release/deeplink-bench
work=.build/deploy-check
python3 Tests/Deploy/check_deploy.py "$bench" "$work/shipped"

broken=$work/broken
rm -rf "$broken"
mkdir -p "$broken"
sed 's/--journeys "\$JOURNEYS"/--journey "$JOURNEYS"/' Deploy/kubernetes/indexed-job.yaml > "$broken/wrong-flag.yaml"
sed 's/shard: \[0, 1, 2, 3\]/shard: [0, 1, 2]/' Deploy/github/sharded-bench.yml > "$broken/skipped-shard.yml"
sed 's/seq 0 \$((SHARDS - 1))/seq 0 $((SHARDS - 2))/' Deploy/local/run-shards.sh > "$broken/short-driver.sh"
chmod +x "$broken/short-driver.sh"
if cmp -s "$broken/wrong-flag.yaml" Deploy/kubernetes/indexed-job.yaml \
    || cmp -s "$broken/skipped-shard.yml" Deploy/github/sharded-bench.yml \
    || cmp -s "$broken/short-driver.sh" Deploy/local/run-shards.sh; then
    echo "check_deploy.sh: a mutation did not change its file (the sed pattern no longer matches)" >&2
    exit 1
fi
for mutation in \
    "--job $broken/wrong-flag.yaml" \
    "--workflow $broken/skipped-shard.yml" \
    "--driver $broken/short-driver.sh"; do
    # shellcheck disable=SC2086  # two words: the option and its file
    if python3 Tests/Deploy/check_deploy.py "$bench" "$work/mutation" $mutation > "$work/mutation.log" 2>&1; then
        echo "check_deploy.sh: the check passed a broken copy ($mutation)" >&2
        exit 1
    fi
    echo "broken copy refused ($mutation): $(grep 'FAIL' "$work/mutation.log" | cut -c1-160)"
done
echo "check_deploy.sh: OK"
