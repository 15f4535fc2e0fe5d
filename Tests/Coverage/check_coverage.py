#!/usr/bin/env python3
"""Checks that a run directory's coverage.csv shows every core decision path exercised at least
--min times (the default `make bench` run must reach 1,000 for each). --kind picks the row kinds
checked (repeatable; default: path; point checks the schedule points too). Prints one line per
row and a closing 'N passed, N failed' line; exit 1 on any failure, 2 on unusable input."""
import argparse
import csv
import os
import sys


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("run_dir")
    parser.add_argument("--min", type=int, default=1000)
    parser.add_argument("--kind", action="append", choices=["path", "point"])
    args = parser.parse_args()
    kinds = args.kind or ["path"]
    path = os.path.join(args.run_dir, "coverage.csv")
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        print(f"error: cannot read {path}: {error}", file=sys.stderr)
        return 2
    checked = [row for row in rows if row.get("strategy") == "core" and row.get("kind") in kinds]
    for kind in kinds:
        if not any(row["kind"] == kind for row in checked):
            print(f"error: {path} has no core rows of kind {kind} (was core run, by this harness?)", file=sys.stderr)
            return 2
    passed = failed = 0
    for row in sorted(checked, key=lambda row: int(row["journeys"])):
        journeys = int(row["journeys"])
        ok = journeys >= args.min
        passed += ok
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {row['kind']} {row['name']}: {journeys} journeys (minimum {args.min})")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
