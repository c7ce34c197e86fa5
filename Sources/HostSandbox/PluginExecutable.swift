import HostSystem

/// The executable every process that runs plugin code starts from:
/// `presenter-host-plugins` (the presenter process, the scan helper, and
/// the whole command line for `--in-process`).
///
/// Why a second executable: a Swift plugin's `libswiftCore.so` binds to the
/// runtime already loaded in its process, so a process that loads plugin
/// code must run on the shared runtime; `presenter-host` itself links the
/// runtime statically, which starts it about twice as fast
/// (docs/BENCHMARKS.md), and therefore never loads plugin code
/// (``DynamicLibrary/refuseInThisProcess()``). The two are built, installed
/// and packaged together, like GStreamer's `gst-plugin-scanner`.
package enum PluginExecutable {
    /// Its file name.
    package static let name = "presenter-host-plugins"

    /// Where it is, found once per process from the running executable
    /// (``locate(running:)``).
    package static let path = locate(running: PathName.readExecutableLink())

    /// Where it is for the running `executable` (`/proc/self/exe`'s
    /// target): `/proc/self/exe` when that is it (a process started from
    /// it starts its helpers from the same file, so an upgrade on disk
    /// cannot mix versions); else beside it (a build's products folder,
    /// the Debian package's `/usr/lib/presenter-host`); else in
    /// `../libexec/presenter-host/` from it (`make install`). When neither
    /// holds it, the first place, so that the error of starting it names
    /// where it was looked for; with no running executable to start from
    /// (no `/proc`), a path that cannot exist, never a bare name that a
    /// spawn would look for in the current directory.
    static func locate(running executable: String?) -> String {
        guard let executable else { return "/proc/self/exe/" + name }
        if PathName(executable).lastComponent == name { return "/proc/self/exe" }
        let candidates = PathName.companionCandidates(name, of: executable)
        return candidates.first(where: FileStatus.isExecutable) ?? candidates[0]
    }
}
