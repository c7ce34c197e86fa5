// The executable is a thin main over the library, so tests can drive the
// same code. It never loads plugin code: see presenter-host-plugins.
import HostCommandLine

PresenterHostCommand.run(Array(CommandLine.arguments.dropFirst()), as: .host)
