import Glibc
import HostSandbox
import HostSystem

/// Which of the two executables runs the command line: the same code,
/// linked two ways (Package.swift), so that the one users start begins
/// like native code and plugin code still runs on the shared Swift runtime.
package enum CommandExecutable: Sendable {
    /// `presenter-host`: the Swift runtime linked statically. It loads no
    /// plugin code (``DynamicLibrary/refuseInThisProcess()``): the
    /// presenter process and the scan helper it starts are
    /// presenter-host-plugins, and it hands over to that executable what
    /// would run plugin code in its own process (``handOver(_:)``).
    case host
    /// `presenter-host-plugins` (``PluginExecutable``): linked to the
    /// shared runtime; runs the helpers, and the whole command line for
    /// `--in-process`, which is how a plugin is debugged: under gdb or
    /// valgrind, run this executable in the foreground.
    case plugins

    /// Runs `arguments` in presenter-host-plugins in place of this process
    /// (the same process id, descriptors and environment), or returns why
    /// it cannot: one line naming the file, and the status.
    static func handOver(_ arguments: [String]) -> CommandError {
        let path = PluginExecutable.path
        // A copy or link of presenter-host in its place would hand over to
        // itself for ever.
        if let target = try? FileStatus.of(path), let this = try? FileStatus.of("/proc/self/exe"),
            target.st_dev == this.st_dev && target.st_ino == this.st_ino
        {
            let shown = PathName.linkTarget(of: path) ?? path  // /proc/self/exe: the file it names
            return .systemError(
                "\(shown) is presenter-host itself, not presenter-host-plugins, where presenter-host runs plugin code: reinstall presenter-host"
            )
        }
        let failure = ProcessSelf.replace(with: path, arguments: [path] + arguments)
        return .systemError(
            "cannot run \(path) (\(failure)), where presenter-host runs plugin code; it is installed beside presenter-host or in ../libexec/presenter-host/ from it: reinstall presenter-host"
        )
    }
}
