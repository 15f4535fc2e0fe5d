#!/usr/bin/env sh
# A sharded deeplink-bench run as local processes: SHARDS shards, PARALLEL at a time, then merged.
# Parameters (environment): SHARDS (default 4), JOURNEYS (default 1000000), SEED (default 42),
# RACE_SHARE (default 0.1), PARALLEL (default: SHARDS), OUT (default Reports/shards),
# BENCH (default .build/release/deeplink-bench: the binary of the commit to measure).
# Each shard runs with one worker thread, so PARALLEL shards use PARALLEL cores.
set -eu
SHARDS=${SHARDS:-4}
JOURNEYS=${JOURNEYS:-1000000}
SEED=${SEED:-42}
RACE_SHARE=${RACE_SHARE:-0.1}
PARALLEL=${PARALLEL:-$SHARDS}
OUT=${OUT:-Reports/shards}
BENCH=${BENCH:-.build/release/deeplink-bench}
export SHARDS JOURNEYS SEED RACE_SHARE OUT BENCH
mkdir -p "$OUT"
seq 0 $((SHARDS - 1)) | xargs -P "$PARALLEL" -I INDEX sh -c \
    '"$BENCH" run --journeys "$JOURNEYS" --seed "$SEED" --race-share "$RACE_SHARE" --threads 1 --quiet --no-report --shard "INDEX/$SHARDS" --out "$OUT/shard-INDEX" > "$OUT/shard-INDEX.log" 2>&1 || { echo "shard INDEX/$SHARDS failed (see $OUT/shard-INDEX.log)" >&2; exit 255; }'
"$BENCH" merge --out "$OUT/merged" "$OUT"/shard-*/
