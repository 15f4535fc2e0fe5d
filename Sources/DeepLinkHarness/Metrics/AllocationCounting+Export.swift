// The harness's users (the CLI, the benchmarks, its tests) count allocations with it too.
@_exported public import AllocationCounting
