/// The environment of a run, written as `manifest.json`: which code (commit, toolchain), on what
/// (CPU model, cores, allocator), how it was invoked (command line) and when (start time, ISO 8601
/// UTC). ``RunManifest/current(commandLine:)`` gathers it; `gate` refuses to compare runs whose
/// CPU model, cores or allocator differ.
///
/// ``run`` names the run itself (id, workload, covered journeys; see ``RunIdentity``). On disk the
/// manifest also lists the directory's files with their sizes and digests (``SealedDirectory``);
/// that list belongs to the directory, not to this value.
///
/// A merged report (`deeplink-bench merge`) combines shard manifests: fields equal in every shard
/// are kept, differing ones are joined with " | ", and ``mergedFrom`` lists the shard directories.
///
/// Thread safety: a value type.
package struct RunManifest: Sendable, Equatable, Codable {
    /// `git rev-parse HEAD` at run time, else the `DEEPLINK_COMMIT` environment variable, else
    /// "unknown".
    package var commit: String
    /// The compiler that built the binary (from `#if compiler(...)`) and the language mode.
    package var toolchain: String
    package var cpuModel: String
    package var cores: Int
    /// "jemalloc <version>" or "system".
    package var allocator: String
    package var commandLine: [String]
    /// ISO 8601 UTC, millisecond precision, e.g. `2026-11-30T22:41:37.123Z`.
    package var startTime: String
    /// `i/n` for a shard of a sharded run, nil otherwise.
    package var shard: String?
    /// The report directories a merged report was made from; empty for a run.
    package var mergedFrom: [String]
    /// What each of those inputs brought (journeys, wall time, violations); empty for a run.
    package var shards: [ShardContribution] = []
    /// What the report is of; nil only for a directory that is not a run's (capacity).
    package var run: RunIdentity?
    /// What else the machine did during the run (summary.csv's disturbance columns are these);
    /// nil for a directory that is not a run's.
    package var disturbance: Disturbance?
    /// The stopwatch of latency.csv and of summary.csv's times (``OperationClock/Calibration/summary``);
    /// nil in manifests written before it was recorded.
    package var operationClock: String?

    package init(
        commit: String,
        toolchain: String,
        cpuModel: String,
        cores: Int,
        allocator: String,
        commandLine: [String],
        startTime: String,
        shard: String? = nil,
        mergedFrom: [String] = [],
        run: RunIdentity? = nil
    ) {
        self.commit = commit
        self.toolchain = toolchain
        self.cpuModel = cpuModel
        self.cores = cores
        self.allocator = allocator
        self.commandLine = commandLine
        self.startTime = startTime
        self.shard = shard
        self.mergedFrom = mergedFrom
        self.run = run
    }

    enum CodingKeys: String, CodingKey {
        case commit
        case toolchain
        case cpuModel = "cpu_model"
        case cores
        case allocator
        case commandLine = "command_line"
        case startTime = "start_time"
        case shard
        case mergedFrom = "merged_from"
        case shards
        case run
        case disturbance
        case operationClock = "operation_clock"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        commit = try container.decode(String.self, forKey: .commit)
        toolchain = try container.decode(String.self, forKey: .toolchain)
        cpuModel = try container.decode(String.self, forKey: .cpuModel)
        cores = try container.decode(Int.self, forKey: .cores)
        allocator = try container.decode(String.self, forKey: .allocator)
        commandLine = try container.decode([String].self, forKey: .commandLine)
        startTime = try container.decode(String.self, forKey: .startTime)
        shard = try container.decodeIfPresent(String.self, forKey: .shard)
        mergedFrom = try container.decodeIfPresent([String].self, forKey: .mergedFrom) ?? []
        shards = try container.decodeIfPresent([ShardContribution].self, forKey: .shards) ?? []
        run = try container.decodeIfPresent(RunIdentity.self, forKey: .run)
        disturbance = try container.decodeIfPresent(Disturbance.self, forKey: .disturbance)
        operationClock = try container.decodeIfPresent(String.self, forKey: .operationClock)
    }

    /// Writes every key; `shard` only for a shard, `merged_from` and `shards` only for a merged
    /// report, `run`, `disturbance` and `operation_clock` when known.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(commit, forKey: .commit)
        try container.encode(toolchain, forKey: .toolchain)
        try container.encode(cpuModel, forKey: .cpuModel)
        try container.encode(cores, forKey: .cores)
        try container.encode(allocator, forKey: .allocator)
        try container.encode(commandLine, forKey: .commandLine)
        try container.encode(startTime, forKey: .startTime)
        try container.encodeIfPresent(shard, forKey: .shard)
        if !mergedFrom.isEmpty { try container.encode(mergedFrom, forKey: .mergedFrom) }
        if !shards.isEmpty { try container.encode(shards, forKey: .shards) }
        try container.encodeIfPresent(run, forKey: .run)
        try container.encodeIfPresent(disturbance, forKey: .disturbance)
        try container.encodeIfPresent(operationClock, forKey: .operationClock)
    }

    /// The manifest of this process now: commit, toolchain, CPU, cores, allocator, `commandLine`,
    /// the current time and the operation clock.
    package static func current(commandLine: [String]) -> RunManifest {
        var manifest = RunManifest(
            commit: Self.currentCommit(),
            toolchain: Self.toolchain,
            cpuModel: ResourceUsage.cpuModel(),
            cores: ResourceUsage.coreCount(),
            allocator: ResourceUsage.allocator(),
            commandLine: commandLine,
            startTime: Self.iso8601(nanosecondsSinceEpoch: Self.nowNanosecondsSinceEpoch())
        )
        manifest.operationClock = OperationClock.calibration.summary
        return manifest
    }

    /// The compiler version this binary was built with, from `#if compiler(...)`.
    package static var toolchain: String {
        #if compiler(>=6.4)
        let compiler = "Swift compiler >= 6.4"
        #elseif compiler(>=6.3)
        let compiler = "Swift compiler 6.3"
        #elseif compiler(>=6.2)
        let compiler = "Swift compiler 6.2"
        #else
        let compiler = "Swift compiler < 6.2"
        #endif
        #if swift(>=6.0)
        let mode = "language mode 6"
        #else
        let mode = "language mode 5"
        #endif
        #if DEBUG
        let configuration = "debug"
        #else
        let configuration = "release"
        #endif
        return "\(compiler), \(mode), \(configuration) build"
    }
}
