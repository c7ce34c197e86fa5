// The executable that runs plugin code, linked to the Swift runtime
// dynamically: the presenter process, the scan helper, and the whole
// command line in one process for `--in-process` (presenter-host execs it).
import HostCommandLine

PresenterHostCommand.run(Array(CommandLine.arguments.dropFirst()), as: .plugins)
