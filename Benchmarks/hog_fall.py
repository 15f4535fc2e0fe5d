#!/usr/bin/env python3
"""How much a run's rates fall beside CPU hogs, core against naive (issue 38).

Runs `deeplink-bench run` twice, interleaved as pairs: alone, then beside HOGS busy loops (one
process each, as a shared CI machine adds). A strategy's fall is its quiet rate over its loaded
rate (summary.csv's journeys_per_s and racing_journeys_per_s). Core may fall at most LIMIT times
as far as naive in the same pair: a race machinery that spins, or that waits for another core,
falls further than a strategy without one.

Usage: hog_fall.py DEEPLINK_BENCH [--pairs N] [--hogs N] [--limit X] [run arguments ...]
Exit 0 when every pair's falls hold, 1 when one does not, 2 for bad input.
"""
import argparse
import csv
import multiprocessing
import os
import subprocess
import sys
import tempfile


def hog(stop):
    while not stop.is_set():
        pass


def rates(directory):
    with open(os.path.join(directory, "summary.csv"), newline="", encoding="utf-8-sig") as handle:
        return {
            row["strategy"]: {
                "journeys": float(row["journeys_per_s"]),
                "racing": float(row["racing_journeys_per_s"]),
            }
            for row in csv.DictReader(handle)
        }


def run(binary, arguments, directory):
    command = [binary, "run", "--strategies", "core,naive", "--quiet", "--out", directory] + arguments
    result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if result.returncode not in (0, 1):
        sys.exit(f"hog_fall: {' '.join(command)} exited {result.returncode}: {result.stderr.strip()}")
    return rates(directory)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
    parser.add_argument("binary")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--hogs", type=int, default=2)
    parser.add_argument("--limit", type=float, default=2.0)
    options, arguments = parser.parse_known_args()
    if options.pairs < 1 or options.hogs < 0 or options.limit <= 0:
        parser.error("--pairs >= 1, --hogs >= 0 and --limit > 0")
    failed = False
    with tempfile.TemporaryDirectory() as root:
        for pair in range(options.pairs):
            quiet = run(options.binary, arguments, os.path.join(root, f"quiet{pair}"))
            stop = multiprocessing.Event()
            hogs = [multiprocessing.Process(target=hog, args=(stop,)) for _ in range(options.hogs)]
            for process in hogs:
                process.start()
            try:
                loaded = run(options.binary, arguments, os.path.join(root, f"loaded{pair}"))
            finally:
                stop.set()
                for process in hogs:
                    process.join()
            for metric in ("journeys", "racing"):
                falls = {name: quiet[name][metric] / max(loaded[name][metric], 1e-12) for name in ("core", "naive")}
                ratio = falls["core"] / falls["naive"]
                holds = ratio <= options.limit
                failed |= not holds
                print(
                    f"pair {pair + 1} {metric:8}: core fell {falls['core']:.2f}x, naive {falls['naive']:.2f}x;"
                    f" core/naive {ratio:.2f} (limit {options.limit:.1f}) {'ok' if holds else 'FAIL'}"
                )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
