import DeepLinkHarness

#if canImport(Glibc)
import Glibc
#endif

let io = CommandIO.standard()
// `run` is supervised: a strategy that traps is reported, and the other journeys still run.
let status = TrapSupervisor.main(arguments: Array(CommandLine.arguments.dropFirst()), io: io)
exit(io.finish(status: status))
