// CoreBenchmarks: the core against its peers, measured side by side in one run (see issue 5).
print("CoreBenchmarks: no benchmarks yet")
