import DeepLinkHarness

#if canImport(Glibc)
import Glibc
#endif

let io = CommandIO.standard()
let status = DeepLinkBench.main(arguments: Array(CommandLine.arguments.dropFirst()), io: io)
io.flush()
exit(status)
