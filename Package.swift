// swift-tools-version: 6.2
//
// DeferredDeepLinks: a deferred deep-link core (`DeepLinkCore`) and the harness that proves it
// (`DeepLinkHarness`, `deeplink-bench`). Dependencies point one way:
// DeepLinkCore <- DeepLinkHarness <- deeplink-bench. The core knows nothing of jemalloc or the CLI.
import PackageDescription

let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

// Under `swift test --sanitize=…` the sanitizer's runtime must own malloc; jemalloc linked beside it
// splits allocations between two allocators. `.ci/run` sets DEEPLINK_SANITIZER for those runs, and
// then nothing links jemalloc (allocation counters read 0 and their assertions are skipped).
let sanitizerRun = (Context.environment["DEEPLINK_SANITIZER"] ?? "").isEmpty == false
let jemalloc: [Target.Dependency] = sanitizerRun ? [] : ["CJemalloc"]

// libFuzzer targets (`Fuzz/run.sh`) exist only when DEEPLINK_FUZZ is set, so that everyday
// `swift build` and `swift test` neither build nor see them. The script also sets DEEPLINK_SANITIZER.
let fuzzRun = (Context.environment["DEEPLINK_FUZZ"] ?? "").isEmpty == false
let fuzzProducts: [Product] = fuzzRun ? [.executable(name: "DeepLinkFuzz", targets: ["DeepLinkFuzz"])] : []
let fuzzTargets: [Target] =
    fuzzRun
    ? [
        .executableTarget(
            name: "DeepLinkFuzz",
            dependencies: ["DeepLinkCore", "DeepLinkCoreTestSupport", "DeepLinkHarness", "DeepLinkLinks"],
            path: "Fuzz/DeepLinkFuzz",
            swiftSettings: strictSettings + [.enableExperimentalFeature("Extern")]
        )
    ] : []

let package = Package(
    name: "DeferredDeepLinks",
    // What the core really needs on Apple platforms: `InlineArray` (inline links and records,
    // Swift 6.2 runtime: OS 26) and `Atomic` (OS 15 / 18). Linux and Android need only the
    // toolchain (Swift 6.2 or later) and its C library.
    platforms: [
        .macOS(.v26), .iOS(.v26), .macCatalyst(.v26), .tvOS(.v26), .watchOS(.v26), .visionOS(.v26),
    ],
    products: [
        .library(name: "DeepLinkCore", targets: ["DeepLinkCore"]),
        // The C ABI for Flutter (dart:ffi) and Kotlin (JNI) apps: a shared library.
        .library(name: "DeepLinkC", type: .dynamic, targets: ["DeepLinkC"]),
        // A HandoffStore over UserDefaults(suiteName:), for apps whose App Clip already shares a suite.
        .library(name: "DeepLinkUserDefaults", targets: ["DeepLinkUserDefaults"]),
        // Making links: Play Store, App Clip and universal links, site association files, and
        // HMAC-SHA256 signing of links (OpenSSL libcrypto), apart from the core, which has no crypto.
        .library(name: "DeepLinkLinks", targets: ["DeepLinkLinks"]),
        .executable(name: "deeplink-bench", targets: ["deeplink-bench"]),
        .executable(name: "CoreBenchmarks", targets: ["CoreBenchmarks"]),
    ] + fuzzProducts,
    targets: [
        // The embeddable core: no Foundation in hot paths, no jemalloc.
        .target(name: "DeepLinkCore", dependencies: ["CLaneMask"], swiftSettings: strictSettings),
        // A sixteen-lane comparison's mask as one instruction (SSE2's movemask; header-only C, which
        // Swift inlines) for the core's referrer scan and form decoding.
        .target(name: "CLaneMask"),
        // `include/deeplink.h` over the core: `@_cdecl` functions on an opaque handle.
        .target(
            name: "DeepLinkC",
            dependencies: ["DeepLinkCore"],
            exclude: ["include"],
            swiftSettings: strictSettings
        ),
        // `UserDefaultsHandoffStore`: the core's HandoffStore over a UserDefaults suite (Foundation,
        // apart from the core, which has none).
        .target(name: "DeepLinkUserDefaults", dependencies: ["DeepLinkCore"], swiftSettings: strictSettings),
        // jemalloc's `mallctl`, for per-thread allocation counters (Debian: libjemalloc-dev).
        .systemLibrary(
            name: "CJemalloc",
            pkgConfig: "jemalloc",
            providers: [.apt(["libjemalloc-dev"])]
        ),
        // OpenSSL's libcrypto, for the SHA-256 digests a report's manifest.json records (Debian:
        // libssl-dev). Linked in sanitizer builds too: it allocates through malloc like any C library.
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        // The CPU's time-stamp counter (header-only C), for the harness's operation stopwatch.
        .target(name: "CCycleCounter"),
        // Stackful coroutines (x86-64 assembly) for the harness's controlled races. Debug
        // information in DWARF 4: valgrind (the instruction gate) cannot read clang's DWARF 5 in
        // this object and refuses the whole binary.
        .target(name: "CRaceFiber", cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // Exact per-thread allocation counts (jemalloc's `thread.allocated`) for the harness, the
        // benchmarks and the core's tests: one counter, apart from both.
        .target(name: "AllocationCounting", dependencies: jemalloc, swiftSettings: strictSettings),
        // Counts what OpenSSL's libcrypto allocates (its memory hooks, installed when the process
        // loads), so that the harness and the benchmarks name its bytes apart: the signing path
        // must keep them at 0. Not in the core or DeepLinkLinks: an app's process is not hooked.
        // DWARF 4 for valgrind, as CRaceFiber.
        .target(name: "CLibcryptoAllocations", dependencies: ["CCrypto"], cSettings: [.unsafeFlags(["-gdwarf-4"])]),
        // The link builder, the site association files and `HMACSHA256Authenticator` (the core's
        // `PayloadAuthenticator` over OpenSSL's libcrypto).
        .target(name: "DeepLinkLinks", dependencies: ["DeepLinkCore", "CCrypto"], swiftSettings: strictSettings),
        // Everything the CLI does, as a testable library.
        .target(
            name: "DeepLinkHarness",
            dependencies: [
                "DeepLinkCore", "DeepLinkLinks", "AllocationCounting", "CCrypto", "CCycleCounter", "CRaceFiber",
                "CLibcryptoAllocations",
            ]
                + jemalloc,
            // `@_addressable`: a journey (424 bytes) borrowed by the oracle is read in place, not
            // copied to the stack so that its events' span has an address.
            swiftSettings: strictSettings + [.enableExperimentalFeature("AddressableParameters")]
        ),
        // Thin `main` over DeepLinkHarness; jemalloc is the process allocator (linked via CJemalloc).
        .executableTarget(
            name: "deeplink-bench",
            dependencies: ["DeepLinkHarness"],
            swiftSettings: strictSettings
        ),
        // Speed, measured as ratios against peers in the same run: the comparisons and their runner
        // (a library, so tests can run it) and a thin executable.
        .target(name: "CThreadAffinity", path: "Benchmarks/CThreadAffinity"),
        .target(
            name: "CoreBenchmarkSuite",
            dependencies: ["DeepLinkCore", "DeepLinkHarness", "DeepLinkLinks", "CThreadAffinity"],
            path: "Benchmarks/CoreBenchmarkSuite",
            swiftSettings: strictSettings
        ),
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: ["CoreBenchmarkSuite", "DeepLinkHarness"],
            path: "Benchmarks/CoreBenchmarks",
            swiftSettings: strictSettings
        ),
        // The core's own test support, apart from the harness: exact allocation counts (the
        // AllocationCounting module, shared with the harness), a seeded generator, the crash
        // writer's records.
        .target(
            name: "DeepLinkCoreTestSupport",
            dependencies: ["DeepLinkCore", "AllocationCounting"],
            path: "Tests/DeepLinkCoreTestSupport",
            swiftSettings: strictSettings
        ),
        // The traits by which a suite leaves a sanitizer run (`.startsNoThread`, `.judgesReportFiles`).
        .target(
            name: "SanitizerTraits",
            dependencies: ["AllocationCounting"],
            path: "Tests/SanitizerTraits",
            swiftSettings: strictSettings
        ),
        // The child process the file store's crash test kills (test support, not a product).
        .executableTarget(
            name: "handoff-crash-writer",
            dependencies: ["DeepLinkCore", "DeepLinkCoreTestSupport"],
            path: "Tests/HandoffCrashWriter",
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DeepLinkCoreTests",
            dependencies: ["DeepLinkCore", "DeepLinkCoreTestSupport", "SanitizerTraits"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DeepLinkLinksTests",
            dependencies: ["DeepLinkLinks", "DeepLinkCore", "DeepLinkCoreTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DeepLinkUserDefaultsTests",
            dependencies: ["DeepLinkUserDefaults", "DeepLinkCore", "DeepLinkCoreTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "CoreBenchmarkSuiteTests",
            dependencies: ["CoreBenchmarkSuite", "DeepLinkHarness", "DeepLinkCore", "DeepLinkCoreTestSupport"],
            swiftSettings: strictSettings
        ),
        .testTarget(
            name: "DeepLinkHarnessTests",
            dependencies: ["DeepLinkHarness", "DeepLinkCore", "SanitizerTraits"],
            swiftSettings: strictSettings
        ),
    ] + fuzzTargets
)
