// The executable is a thin main over the library, so tests can drive the same code.
import HostCommandLine

PresenterHostCommand.run(Array(CommandLine.arguments.dropFirst()))
