/// Where a command reads and writes: the process's standard streams, or buffers in tests.
///
/// Thread safety: not thread-safe; a command uses its `CommandIO` from the thread that runs it.
package final class CommandIO {
    private let writeOut: (String) -> Void
    private let writeErr: (String) -> Void
    /// Standard input (internal: ``stdoutToStderr`` shares it).
    let input: LineReader
    private let flushOut: () -> Void
    private let outFailure: () -> StreamError?
    /// Whether ``finish(status:)`` has reported the stdout failure already.
    private var failureReported = false
    /// Whether standard error is an interactive terminal (progress bars) or not (plain lines).
    package let stderrIsTerminal: Bool

    /// - Parameters:
    ///   - stdin: standard input (default: empty).
    ///   - stdoutFailure: the first error writing standard output, if any (default: none).
    package init(
        stdout: @escaping (String) -> Void,
        stderr: @escaping (String) -> Void,
        stdin: LineReader = LineReader(bytes: []),
        flush: @escaping () -> Void = {},
        stdoutFailure: @escaping () -> StreamError? = { nil },
        stderrIsTerminal: Bool = false
    ) {
        self.writeOut = stdout
        self.writeErr = stderr
        self.input = stdin
        self.flushOut = flush
        self.outFailure = stdoutFailure
        self.stderrIsTerminal = stderrIsTerminal
    }

    /// Writes `text` to standard output as is (add your own newline).
    package func out(_ text: String) { writeOut(text) }

    /// Writes `text` to standard error as is.
    package func err(_ text: String) { writeErr(text) }

    /// The next line of standard input (any bytes, not necessarily UTF-8; see ``LineReader``), or
    /// `nil` at end of input.
    package func readLine(maxBytes: Int) throws(StreamError) -> LineReader.Line? {
        try input.nextLine(maxBytes: maxBytes)
    }

    /// Pushes buffered standard output out.
    package func flush() { flushOut() }

    /// The first error writing standard output (its later output was dropped), or nil.
    package var stdoutFailure: StreamError? { outFailure() }

    /// The exit status of a command that returned `status`: flushes standard output, and if
    /// writing it failed, says so on standard error and returns 2 (the output is lost, so the
    /// command did not do its job, whatever it computed).
    package func finish(status: Int32) -> Int32 {
        flush()
        guard let failure = stdoutFailure else { return status }
        if !failureReported {
            failureReported = true
            err(
                "error: cannot write standard output: \(failure); its output is lost. Free space on the device "
                    + "it goes to, or redirect it to a file or pipe that accepts writes.\n"
            )
        }
        return 2
    }
}
