#if canImport(Glibc)
import Glibc
#endif

/// `deeplink-bench serve-core`: DeepLinkCore behind the journey protocol on stdin/stdout
/// (`Docs/Protocol.md`), the reference adapter for `run --exec` and `conform`.
///
/// Thread safety: a command runs on the thread that calls `run(io:)`.
package struct ServeCoreCommand: BenchCommand {
    package static let configuration = CommandConfiguration(
        name: "serve-core",
        abstract: "Serve DeepLinkCore over the journey protocol on stdin/stdout (an adapter for run --exec).",
        usage: "serve-core",
        discussion: """
            Reads the harness's JSON Lines on stdin and answers on stdout (Docs/Protocol.md, protocol 1). \
            Use it as: deeplink-bench run --strategies core,exec:core2 --exec core2='deeplink-bench serve-core'. \
            Exits 0 at the end of stdin, 1 after a line that is not protocol JSON.
            """,
        options: []
    )

    package init(arguments: ParsedArguments) throws(CLIError) {
        if let extra = arguments.positionals.first { throw .unexpectedArgument(extra) }
    }

    package mutating func run(io: CommandIO) throws -> Int32 {
        let output = FileDescriptorWriter(fileDescriptor: STDOUT_FILENO)
        let core = ServeCore(output: { output.write(bytes: $0) })
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var carry: [UInt8] = []
        while true {
            // Everything read so far is answered before blocking for more (Docs/Protocol.md).
            output.flush()
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            var start = 0
            for index in 0..<count where buffer[index] == UInt8(ascii: "\n") {
                if carry.isEmpty {
                    guard core.handle(Array(buffer[start..<index])) else { return finish(output, 1) }
                } else {
                    carry += buffer[start..<index]
                    guard core.handle(carry) else { return finish(output, 1) }
                    carry.removeAll(keepingCapacity: true)
                }
                start = index + 1
            }
            carry += buffer[start..<count]
        }
        if !carry.isEmpty, !core.handle(carry) { return finish(output, 1) }
        return finish(output, 0)
    }

    private func finish(_ output: FileDescriptorWriter, _ status: Int32) -> Int32 {
        output.flush()
        return status
    }
}
