#if canImport(Glibc)
import Glibc
#endif

extension CommandIO {
    /// The process's real standard streams. Standard output is buffered, and flushed before
    /// every read of standard input (so each answer leaves before the process waits for the next
    /// question) and before every write to standard error (so the two stay in order); call
    /// ``finish(status:)`` before exiting (`deeplink-bench`'s `main` does), which reports a
    /// failed write to standard output.
    package static func standard() -> CommandIO {
        let output = FileDescriptorWriter(fileDescriptor: STDOUT_FILENO)
        return CommandIO(
            stdout: { output.write($0) },
            stderr: { text in
                output.flush()
                FileDescriptorWriter.writeAll(text, to: STDERR_FILENO)
            },
            stdin: LineReader(fileDescriptor: STDIN_FILENO, beforeRead: { output.flush() }),
            flush: { output.flush() },
            stdoutFailure: { output.failure },
            stderrIsTerminal: isatty(STDERR_FILENO) != 0
        )
    }
}
