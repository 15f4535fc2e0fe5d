import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Keeps `deeplink-bench run` alive through a strategy that traps. The real work runs in a child
/// process (this executable again); when the child dies of a signal inside a journey, its signal
/// handler has written which strategy and journey (``TrapHandler``). The supervisor notes it and
/// runs the child again, told to count that journey as `trapped` instead of running it, so the
/// report covers every other journey and names the one that killed the process, with its trace.
/// After ``maxTraps`` traps it gives up with an error (exit 1).
///
/// Only the `deeplink-bench` executable supervises (its `main`); tests and embedders that call
/// ``DeepLinkBench/main(arguments:io:)`` run in process.
///
/// Thread safety: runs on the main thread of the executable.
package enum TrapSupervisor {
    static let supervisedVariable = "DEEPLINK_SUPERVISED"
    static let trapFileVariable = "DEEPLINK_TRAP_FILE"
    static let trappedVariable = "DEEPLINK_TRAPPED_JOURNEYS"
    /// Traps after which the run gives up.
    package static let maxTraps = 8

    /// The executable's entry point: supervises `run`, runs every other command directly.
    package static func main(arguments: [String], io: CommandIO) -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        if environment[supervisedVariable] != nil {
            // The run's worker dies with its supervisor (SIGTERM: its exec cleanup runs), rather
            // than run on in its own process group with its children.
            _ = ExecCleanup.dieWithParent(signal: SIGTERM)
            if getppid() == 1 { return 1 }
        }
        guard arguments.first == "run", !arguments.contains(Flag.help.name), environment[supervisedVariable] == nil,
            let parsed = try? ArgumentParser.parse(
                Array(arguments.dropFirst()),
                options: RunCommand.configuration.options
            ),
            let command = try? RunCommand(arguments: parsed)
        else {
            return DeepLinkBench.main(arguments: arguments, io: io)
        }
        let configuration = command.configurationToRun
        let trapFile = NSTemporaryDirectory() + "/deeplink-trap-\(getpid())"
        defer { unlink(trapFile) }
        var trapped: [TrappedJourney] = []
        while true {
            unlink(trapFile)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            process.arguments = arguments
            var childEnvironment = environment
            childEnvironment[supervisedVariable] = "1"
            childEnvironment[trapFileVariable] = trapFile
            childEnvironment[trappedVariable] = trapped.map { "\($0.strategyIndex):\($0.journey)" }
                .joined(separator: ",")
            process.environment = childEnvironment
            io.flush()
            do {
                try process.run()
            } catch {
                io.err("error: run: cannot start the run's worker process: \(error)\n")
                return 2
            }
            process.waitUntilExit()
            guard process.terminationReason == .uncaughtSignal else { return process.terminationStatus }
            let signal = process.terminationStatus
            guard let found = readTrapFile(trapFile), found.strategyIndex < configuration.strategies.count else {
                io.err(
                    "error: run: the run's process died of signal \(signal) outside any journey; no report written\n"
                )
                return 1
            }
            trapped.append(found)
            let name = configuration.strategies[found.strategyIndex].rawValue
            io.err(
                "note: run: \(name) killed the process (signal \(signal)) on journey \(found.journey); running the "
                    + "other journeys again, that one counted as trapped. Replay it: deeplink-bench replay --seed "
                    + "\(configuration.seed) --journey \(found.journey) --strategies \(name)\n"
            )
            guard trapped.count < maxTraps else {
                io.err("error: run: \(trapped.count) journeys killed the process; giving up, no report written\n")
                return 1
            }
        }
    }

    /// Child side: installs the trap handler when supervised and returns the journeys to count as
    /// trapped (named errors for a malformed list: it comes from the supervisor only).
    static func childSetUp() throws(CLIError) -> [TrappedJourney] {
        let environment = ProcessInfo.processInfo.environment
        guard environment[supervisedVariable] != nil else { return [] }
        if let path = environment[trapFileVariable], !path.isEmpty { TrapHandler.install(trapFile: path) }
        guard let list = environment[trappedVariable], !list.isEmpty else { return [] }
        var trapped: [TrappedJourney] = []
        for item in list.split(separator: ",") {
            let parts = item.split(separator: ":")
            guard parts.count == 2, let strategy = Int(parts[0]), let journey = UInt64(parts[1]) else {
                throw .invalidInput("\(trappedVariable): '\(item)' is not STRATEGY:JOURNEY")
            }
            trapped.append(TrappedJourney(strategyIndex: strategy, journey: journey))
        }
        return trapped
    }

    /// `strategy journey` as the trap handler wrote it.
    static func readTrapFile(_ path: String) -> TrappedJourney? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard parts.count == 2, let strategy = Int(parts[0]), let journey = UInt64(parts[1]) else { return nil }
        return TrappedJourney(strategyIndex: strategy, journey: journey)
    }
}
