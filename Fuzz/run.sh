#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/DeepLinkFuzz) with AddressSanitizer and coverage, then runs
# each one for SECONDS (default 20) from its seed corpus in Fuzz/corpus/<target>/.
#
#   Fuzz/run.sh [SECONDS] [TARGET...]     targets: referrer validator record csv arguments inspect histogram
#                                         canonical builder signature
#
# Exits non-zero when any target finds a crash, an ASan error, a violated property or a timeout;
# the input that did it is saved as .build/fuzz-work/artifacts/<target>-crash-… (or timeout-/oom-)
# and can be replayed with: DEEPLINK_FUZZ_TARGET=<target> .build/fuzz/debug/DeepLinkFuzz <file>
# New inputs libFuzzer finds go to .build/fuzz-work/corpus/<target>/; the committed seeds stay as
# they are.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-20}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=(referrer validator record csv arguments inspect histogram canonical builder signature); fi

swift_bin="$(dirname "$(command -v swift)")"
runtime="$swift_bin/../lib/clang"
fuzzer_runtime="$(ls "$runtime"/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -n 1 || true)"
if [ -z "$fuzzer_runtime" ]; then
  echo "libclang_rt.fuzzer_no_main-x86_64.a not found under $runtime (needs a Linux Swift toolchain)" >&2
  exit 1
fi

# DEEPLINK_FUZZ adds the DeepLinkFuzz target to the package; DEEPLINK_SANITIZER drops jemalloc,
# which must not sit beside ASan's allocator. The debug build keeps the code's own assertions.
echo "== building DeepLinkFuzz (debug, ASan, libFuzzer coverage)"
mkdir -p .build/fuzz-work/artifacts
build_log=.build/fuzz-work/build.log
if ! DEEPLINK_FUZZ=1 DEEPLINK_SANITIZER=fuzzer swift build -c debug --scratch-path .build/fuzz \
  --product DeepLinkFuzz \
  -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
  -Xlinker "$fuzzer_runtime" -Xlinker -lstdc++ >"$build_log" 2>&1; then
  grep -v "Cannot export local symbol" "$build_log" >&2
  exit 1
fi
binary=.build/fuzz/debug/DeepLinkFuzz

failed=()
summary=""
for target in "${targets[@]}"; do
  seeds="Fuzz/corpus/$target"
  work=".build/fuzz-work/corpus/$target"
  log=".build/fuzz-work/$target.log"
  mkdir -p "$work"
  [ -d "$seeds" ] || { echo "no seed corpus $seeds" >&2; exit 1; }
  echo "== $target: ${seconds}s"
  # The referrer parser's limits go up to 8,192 bytes; the other inputs are small.
  max_len=4096
  if [ "$target" = referrer ]; then max_len=9000; fi
  # Histograms walk 37,888 buckets through generic code that allocates in debug builds; ASan's
  # default 30-frame stack per allocation dominated that target's time.
  asan_options=detect_leaks=0
  if [ "$target" = histogram ]; then asan_options=detect_leaks=0:malloc_context_size=2; fi
  status=0
  # SWIFT_BACKTRACE=enable=no: Swift's crash handler would otherwise take the signal first.
  DEEPLINK_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="$asan_options" \
    "$binary" "$work" "$seeds" \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix=".build/fuzz-work/artifacts/$target-" >"$log" 2>&1 || status=$?
  runs="$(grep -Eo '^Done [0-9]+ runs' "$log" | grep -Eo '[0-9]+' || true)"
  coverage="$(grep -Eo 'cov: [0-9]+' "$log" | tail -n 1 || true)"
  if [ "$status" -ne 0 ]; then
    failed+=("$target")
    grep -E "property violated|ERROR: |SUMMARY|Test unit written|ALARM|Fatal error" "$log" >&2 || tail -n 30 "$log" >&2
    summary+="$(printf '%-10s FAILED (exit %s), see %s' "$target" "$status" "$log")"$'\n'
  else
    summary+="$(printf '%-10s %10s executions, %s' "$target" "${runs:-?}" "$coverage")"$'\n'
  fi
done

echo "== summary (${seconds}s per target)"
printf '%s' "$summary"
if [ ${#failed[@]} -ne 0 ]; then
  echo "failed: ${failed[*]}" >&2
  exit 1
fi
