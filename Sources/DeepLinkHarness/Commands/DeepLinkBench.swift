#if canImport(Glibc)
import Glibc
#endif

/// The `deeplink-bench` entry point: picks the subcommand, parses and validates its arguments,
/// runs it. Usage errors print one line and exit 2.
package enum DeepLinkBench {
    /// Every subcommand, in the order `--help` lists them.
    package static var commands: [any BenchCommand.Type] {
        [
            RunCommand.self,
            ReplayCommand.self,
            InspectCommand.self,
            GateCommand.self,
            MergeCommand.self,
            CapacityCommand.self,
            ReportCommand.self,
            ServeCoreCommand.self,
            ConformCommand.self,
            LinksCommand.self,
        ]
    }

    package static let overview = """
        OVERVIEW: Drive synthetic install / launch / login journeys through DeepLinkCore, check them \
        against an oracle, and measure.

        USAGE: deeplink-bench <command> [options]

        """

    /// The top-level help text.
    package static var help: String {
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

    /// Runs the command line `arguments` (without the program name); returns the exit status
    /// (2 when standard output could not be written, see ``CommandIO/finish(status:)``).
    package static func main(arguments: [String], io: CommandIO) -> Int32 {
        io.finish(status: dispatch(arguments: arguments, io: io))
    }

    private static func dispatch(arguments: [String], io: CommandIO) -> Int32 {
        guard let name = arguments.first else {
            io.err(help)
            return 2
        }
        if name == Flag.help.name || name == "-h" || name == "help" {
            io.out(help)
            return 0
        }
        guard let command = commands.first(where: { $0.configuration.name == name }) else {
            io.err("error: " + CLIError.unknownCommand(name).message + "\n")
            return 2
        }
        return run(command, named: name, arguments: Array(arguments.dropFirst()), io: io)
    }

    /// Runs `command` (or the subcommand the first argument names), called `path` in messages.
    private static func run(
        _ command: any BenchCommand.Type,
        named path: String,
        arguments: [String],
        io: CommandIO
    ) -> Int32 {
        if let first = arguments.first,
            let subcommand = command.subcommands.first(where: { $0.configuration.name == first })
        {
            return run(subcommand, named: path + " " + first, arguments: Array(arguments.dropFirst()), io: io)
        }
        let configuration = command.configuration
        do {
            let parsed = try ArgumentParser.parse(arguments, options: configuration.options)
            if parsed[.help] {
                io.out(configuration.help)
                return 0
            }
            var instance = try command.init(arguments: parsed)
            return try instance.run(io: io)
        } catch let error as CLIError {
            io.err("error: \(path): \(error.message)\n")
            return 2
        } catch {
            io.err("error: \(path): \(error)\n")
            return 2
        }
    }
}
