public import DeepLinkCore

/// `deeplink-bench handoff-write-loop --dir D`: an internal subcommand, the child process of the
/// `FileHandoffStore` crash test. It saves records with ids 1, 2, 3… (and consumes every k-th)
/// until it is killed or reaches `--count`, printing `saved <id>` / `consumed <id>` after each
/// operation returns, so the test knows what was durable before the kill.
///
/// Thread safety: a command runs on the thread that calls `run(io:)`.
public struct HandoffWriteLoopCommand: BenchCommand {
    public static let configuration = CommandConfiguration(
        name: "handoff-write-loop",
        abstract: "(internal) Crash-test child: save and consume handoff records in a directory until killed.",
        usage: "handoff-write-loop --dir <directory> [--count <n>] [--consume-every <k>] [--slow-writes]",
        discussion: """
            Saves pending links with ids 1, 2, 3… (content derived from the id, see \
            HandoffWriteLoopCommand.record(id:)) into a FileHandoffStore, and marks every k-th one \
            consumed. After each operation returns it prints `saved <id>` or `consumed <id>` and \
            flushes. Used by the test suite, which kills it with SIGKILL at random instants.
            """,
        options: [
            OptionSpec("--dir", value: "directory", help: "The store's directory (created if missing)."),
            OptionSpec("--count", value: "n", help: "Stop after n records (default: until killed)."),
            OptionSpec("--consume-every", value: "k", help: "Mark every k-th record consumed; 0: never (default 2)."),
            .flag("--slow-writes", help: "Write files 8 bytes at a time with pauses, to be killed mid-file."),
        ]
    )

    public var directory: String
    public var count: Int
    public var consumeEvery: Int
    public var slowWrites: Bool

    public init(arguments: ParsedArguments) throws(CLIError) {
        guard let directory = arguments.string("--dir"), !directory.isEmpty else {
            throw .missingArgument("--dir <directory>")
        }
        if let extra = arguments.positionals.first { throw .unexpectedArgument(extra) }
        self.directory = directory
        self.count = try arguments.integer("--count", in: 1...Int(Int32.max)) ?? Int(Int32.max)
        self.consumeEvery = try arguments.integer("--consume-every", in: 0...1_000_000) ?? 2
        self.slowWrites = arguments.has("--slow-writes")
    }

    /// The record with `id`: links of varying length (up to ``DeepLink/capacity``), sources and
    /// timestamps all derived from `id`, so that the test can check every field it finds.
    public static func record(id: UInt64) -> PendingLink {
        let padding = String(repeating: "p", count: Int(id % 449))
        let text = "/product/\(id)?ref=crash&pad=\(padding)"
        let link = DeepLink(validated: text) ?? DeepLink(validated: "/product")!
        return PendingLink(
            link: link,
            source: LinkSource.allCases[Int(id % UInt64(LinkSource.allCases.count))],
            capturedAtNanos: id &* 1_000_003,
            id: id
        )
    }

    public mutating func run(io: CommandIO) throws -> Int32 {
        let store: FileHandoffStore
        do {
            store = try FileHandoffStore(directory: directory, slowWritesForCrashTesting: slowWrites)
        } catch {
            io.err("error: handoff-write-loop: cannot open store: \(error)\n")
            return 1
        }
        var id: UInt64 = 1
        while id <= UInt64(count) {
            let link = Self.record(id: id)
            do {
                try store.save(link)
                io.out("saved \(id)\n")
                io.flush()
                if consumeEvery > 0, id % UInt64(consumeEvery) == 0 {
                    try store.markConsumed(link)
                    io.out("consumed \(id)\n")
                    io.flush()
                }
            } catch {
                io.err("error: handoff-write-loop: record \(id): \(error)\n")
                return 1
            }
            id += 1
        }
        return 0
    }
}
