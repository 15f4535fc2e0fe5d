extension CommandIO {
    /// The same streams with standard output sent to standard error, for commands whose stdout
    /// must carry one document only (`gate --format markdown`).
    var stdoutToStderr: CommandIO {
        CommandIO(
            stdout: { [self] in self.err($0) },
            stderr: { [self] in self.err($0) },
            stdin: input,
            flush: { [self] in self.flush() },
            stderrIsTerminal: stderrIsTerminal
        )
    }
}
