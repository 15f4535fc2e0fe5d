#if canImport(Glibc)
import Glibc
#endif

/// The `deeplink-bench` entry point: picks the subcommand, parses and validates its arguments,
/// runs it. Usage errors print one line and exit 2.
public enum DeepLinkBench {
    /// Every subcommand, in the order `--help` lists them.
    public static var commands: [any BenchCommand.Type] {
        [
            RunCommand.self,
            ReplayCommand.self,
            InspectCommand.self,
            GateCommand.self,
            MergeCommand.self,
            CapacityCommand.self,
            ReportCommand.self,
        ]
    }

    public static let overview = """
        OVERVIEW: Drive synthetic install / launch / login journeys through DeepLinkCore, check them \
        against an oracle, and measure.

        USAGE: deeplink-bench <command> [options]

        """

    /// The top-level help text.
    public static var help: String {
        var text = overview + "\nCOMMANDS:\n"
        let width = commands.map { $0.configuration.name.count }.max() ?? 0
        for command in commands {
            let name = command.configuration.name
            text += "  \(name)" + String(repeating: " ", count: width - name.count + 2)
            text += command.configuration.abstract + "\n"
        }
        text += "\nSee 'deeplink-bench <command> --help' for a command's options.\n"
        return text
    }

    /// Runs the command line `arguments` (without the program name); returns the exit status.
    public static func main(arguments: [String], io: CommandIO) -> Int32 {
        guard let name = arguments.first else {
            io.err(help)
            return 2
        }
        if name == "--help" || name == "-h" || name == "help" {
            io.out(help)
            return 0
        }
        guard let command = commands.first(where: { $0.configuration.name == name }) else {
            io.err("error: " + CLIError.unknownCommand(name).message + "\n")
            return 2
        }
        return run(command, arguments: Array(arguments.dropFirst()), io: io)
    }

    private static func run(_ command: any BenchCommand.Type, arguments: [String], io: CommandIO) -> Int32 {
        let configuration = command.configuration
        do {
            let parsed = try ArgumentParser.parse(arguments, options: configuration.options)
            if parsed.has("--help") {
                io.out(configuration.help)
                return 0
            }
            var instance = try command.init(arguments: parsed)
            return try instance.run(io: io)
        } catch let error as CLIError {
            io.err("error: \(configuration.name): \(error.message)\n")
            return 2
        } catch {
            io.err("error: \(configuration.name): \(error)\n")
            return 2
        }
    }
}

extension CommandIO {
    /// The process's real standard streams. Standard output is buffered; call ``flush()`` before
    /// exiting (`deeplink-bench`'s `main` does).
    public static func standard() -> CommandIO {
        let output = FileDescriptorWriter(fileDescriptor: STDOUT_FILENO)
        let input = FileDescriptorLineReader(fileDescriptor: STDIN_FILENO)
        return CommandIO(
            stdout: { output.write($0) },
            stderr: { text in
                output.flush()
                FileDescriptorWriter.writeAll(text, to: STDERR_FILENO)
            },
            readLine: { input.nextLine() },
            flush: { output.flush() },
            stderrIsTerminal: isatty(STDERR_FILENO) != 0
        )
    }
}

/// Buffered writes to a file descriptor.
final class FileDescriptorWriter {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { Self.writeAll($0, to: fileDescriptor) }
        buffer.removeAll(keepingCapacity: true)
    }

    static func writeAll(_ text: String, to fileDescriptor: Int32) {
        var text = text
        text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: fileDescriptor) }
    }

    static func writeAll(_ bytes: UnsafeRawBufferPointer, to fileDescriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}

/// Reads `\n`-terminated lines of arbitrary bytes from a file descriptor.
final class FileDescriptorLineReader {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEnd = false

    init(fileDescriptor: Int32) { self.fileDescriptor = fileDescriptor }

    func nextLine() -> [UInt8]? {
        while true {
            if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                return line
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                let line = Array(buffer[start...])
                start = buffer.count
                return line
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let count = chunk.withUnsafeMutableBytes { read(fileDescriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 {
                atEnd = true
            } else {
                buffer.append(contentsOf: chunk[0..<count])
            }
        }
    }
}
