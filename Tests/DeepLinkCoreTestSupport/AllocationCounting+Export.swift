// The core's tests count allocations with the same counter as the harness, without the harness.
@_exported public import AllocationCounting
