#!/usr/bin/env python3
"""Reads a report directory's latency.hlog with HdrHistogram's own Python package (hdrh) and
checks every interval against latency.csv: the same count, the same maximum (to its bucket) and
the same p50 and p99 when hdrh's decoded counts are read with latency.csv's rank rule (the
ceil(p/100 x count)-th value, the top of its bucket, clamped to the exact minimum and maximum).

Usage: check_hlog.py REPORT_DIR. Prints one line per interval; exit 1 on any disagreement."""
import csv
import math
import sys

from hdrh.histogram import HdrHistogram


def main(directory):
    latency = {}
    with open(directory + "/latency.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            key = (row["strategy"], row["metric"])
            latency.setdefault(key, {})[row["percentile"]] = int(row["value_ns"])
            latency[key]["count"] = int(row["count"])
    problems = []
    seen = set()
    with open(directory + "/latency.hlog") as handle:
        lines = handle.read().splitlines()
    if lines[0] != "#[Histogram log format version 1.3]":
        problems.append("first line: " + lines[0])
    for line in lines:
        if not line.startswith("Tag="):
            continue
        tag, _start, _length, _max, payload = line[len("Tag="):].split(",")
        strategy, metric = tag.rsplit("/", 1)
        histogram = HdrHistogram.decode(payload)
        expected = latency[(strategy, metric)]
        seen.add((strategy, metric))
        count = histogram.get_total_count()
        observed = {"count": count}
        for percentile in ("50", "99"):
            rank = max(1, math.ceil(float(percentile) / 100 * count))
            total = 0
            for index in range(histogram.counts_len):
                total += histogram.get_count_at_index(index)
                if total >= rank:
                    value = histogram.get_highest_equivalent_value(histogram.get_value_from_index(index))
                    observed[percentile] = min(max(value, expected["0"]), expected["100"])
                    break
        observed["max"] = histogram.get_max_value()
        wanted = {
            "count": expected["count"], "50": expected["50"], "99": expected["99"],
            # Values past the highest trackable one are counted in the top bucket.
            "max": histogram.get_highest_equivalent_value(
                min(expected["100"], histogram.highest_trackable_value)),
        }
        print("%s: count %d, p50 %d, p99 %d, max %d (hdrh's own p99 %d)" % (
            tag, count, observed["50"], observed["99"], observed["max"],
            histogram.get_value_at_percentile(99)))
        if observed != wanted:
            problems.append("%s: hdrh reads %s, latency.csv says %s" % (tag, observed, wanted))
    for key in latency:
        if key not in seen:
            problems.append("%s/%s: in latency.csv, not in latency.hlog" % key)
    for problem in problems:
        print("error: " + problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
