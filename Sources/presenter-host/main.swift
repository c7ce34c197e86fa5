// The executable is a thin main over the library, so tests can drive the same code.
import HostCommandLine

#if canImport(Glibc)
    import Glibc
#endif

exit(PresenterHostCommand.main(Array(CommandLine.arguments.dropFirst())))
