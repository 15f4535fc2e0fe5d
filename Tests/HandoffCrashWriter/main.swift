// `handoff-crash-writer --dir D [--count n] [--consume-every k] [--slow-writes]`: the child process
// of the `FileHandoffStore` crash test (test support, not a product). It saves records with ids 1,
// 2, 3… (`CrashWriterRecords.record(id:)`) and marks every k-th consumed, until it is killed or
// reaches `--count`, printing `saved <id>` / `consumed <id>` after each operation returns, so the
// test knows what was durable before the kill. Exit 2 for bad arguments, 1 for a store failure.
import DeepLinkCore
import DeepLinkCoreTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes `text` to `descriptor` unbuffered: a line printed is a line the test can read even if
/// the next instant is a SIGKILL.
func emit(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}

func fail(_ message: String, status: Int32) -> Never {
    emit("error: handoff-crash-writer: \(message)\n", to: 2)
    exit(status)
}

/// The command line, checked: every problem is a named error and exit status 2.
struct Options {
    static let usage =
        "usage: handoff-crash-writer --dir <directory> [--count <n>] [--consume-every <k>] [--slow-writes]"

    var directory = ""
    var count = UInt64(Int32.max)
    var consumeEvery: UInt64 = 2
    var slowWrites = false

    init(_ arguments: [String]) {
        var remaining = arguments[...]
        func value(after option: String) -> String {
            guard let text = remaining.popFirst(), !text.isEmpty else {
                fail("\(option) needs a value\n\(Self.usage)", status: 2)
            }
            return text
        }
        func number(after option: String, in range: ClosedRange<UInt64>) -> UInt64 {
            let text = value(after: option)
            guard let number = UInt64(text), range.contains(number) else {
                fail("\(option): '\(text)' is not a whole number in \(range)", status: 2)
            }
            return number
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--dir": directory = value(after: argument)
            case "--count": count = number(after: argument, in: 1...UInt64(Int32.max))
            case "--consume-every": consumeEvery = number(after: argument, in: 0...1_000_000)
            case "--slow-writes": slowWrites = true
            default: fail("unexpected argument '\(argument)'\n\(Self.usage)", status: 2)
            }
        }
        guard !directory.isEmpty else { fail("missing argument: --dir <directory>\n\(Self.usage)", status: 2) }
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
let store: FileHandoffStore
do {
    store = try FileHandoffStore(directory: options.directory, slowWritesForCrashTesting: options.slowWrites)
} catch {
    fail("cannot open store in \(options.directory): \(error)", status: 1)
}
var id: UInt64 = 1
while id <= options.count {
    let link = CrashWriterRecords.record(id: id)
    do {
        try store.save(link)
        emit("saved \(id)\n", to: 1)
        if options.consumeEvery > 0, id % options.consumeEvery == 0 {
            _ = try store.markConsumed(link)
            emit("consumed \(id)\n", to: 1)
        }
    } catch {
        fail("record \(id): \(error)", status: 1)
    }
    id += 1
}
