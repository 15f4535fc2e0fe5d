#!/usr/bin/env python3
"""Checks that a run directory's coverage.csv shows every core decision path exercised at least
--min times (the default `make bench` run must reach 1,000 for each). Prints one line per path
and a closing 'N passed, N failed' line; exit 1 on any failure, 2 on unusable input."""
import argparse
import csv
import os
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("run_dir")
    parser.add_argument("--min", type=int, default=1000)
    args = parser.parse_args()
    path = os.path.join(args.run_dir, "coverage.csv")
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        print(f"error: cannot read {path}: {error}", file=sys.stderr)
        return 2
    paths = [row for row in rows if row.get("strategy") == "core" and row.get("kind") == "path"]
    if not paths:
        print(f"error: {path} has no core decision paths (was core run?)", file=sys.stderr)
        return 2
    passed = failed = 0
    for row in sorted(paths, key=lambda row: int(row["journeys"])):
        journeys = int(row["journeys"])
        ok = journeys >= args.min
        passed += ok
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {row['name']}: {journeys} journeys (minimum {args.min})")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
