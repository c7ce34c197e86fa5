import Glibc
import HostSandbox
import HostSystem
import HostText
import PresenterABI

/// Why a plugin file, or one presenter in it, was not loaded. `description`
/// is the one-line reason shown to the user after the file's path: what is
/// wrong (`reason`), then what to do (`advice`), kept apart so that `check`
/// can give its own advice. It quotes what a plugin chose (an id, `dlerror`'s
/// text naming a library or symbol, a path), escaped (`PrintableText`)
/// wherever the reason goes.
public enum PluginLoadFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Opening or reading the file failed as discovery's checks fail (it
    /// vanished, became a dangling link, cannot be read), or it no longer
    /// passes the owner and mode rules, which are checked again on the
    /// descriptor it is loaded through: the file changed since discovery.
    case file(DiscoveryFailure)
    /// The checked path became a symbolic link before it was opened.
    case replacedByLink
    /// A directory named like a library.
    case directory
    /// A FIFO, socket or device named like a library.
    case notRegularFile(kind: String)
    /// A file of zero bytes.
    case empty
    /// A file larger than ``PluginFile/largestFile`` bytes: its size.
    case tooLarge(size: Int64)
    /// No ELF magic; `looksLikeText` when the start is printable text.
    case notELF(looksLikeText: Bool)
    /// 32-bit (or unknown class) code on a 64-bit host.
    case wrongClass(String)
    /// Big-endian code on a little-endian host or the reverse.
    case wrongByteOrder(plugin: String, host: String)
    /// Code for another machine.
    case wrongMachine(plugin: String, host: String)
    /// An ELF file that is not a shared object (an executable, a PIE, an object file...).
    case notSharedObject(kind: String)
    /// The file ends before its headers or segments do.
    case truncated(String)
    /// The headers are inconsistent.
    case malformed(String)
    /// A Swift plugin built by another Swift toolchain than the runtime this
    /// process runs on (`SwiftToolchain`): the compilers its `.comment` and
    /// the runtime's name, made short and safe, and the runtime's version.
    case otherSwiftToolchain(plugin: String, runtime: String, swift: String)
    /// `dlopen` failed; carries `dlerror`'s text (missing dependency, undefined symbol...).
    case dlopen(String)
    /// The library loads but has no `presenter_plugin_descriptor`.
    case noEntryPoint
    /// The entry point returns NULL for index 0.
    case noPresenter
    /// The entry point kept returning descriptors past the limit.
    case tooManyPresenters(limit: Int)
    /// Loading the file killed the scan helper with this signal (see `PluginScanner`).
    case crashed(signal: Int32)
    /// Loading the file made the scan helper exit with this status (a
    /// constructor called `exit`, or ld.so gave up with an assertion).
    case exited(status: Int32)
    /// Loading the file did not finish within the scanner's timeout.
    case timedOut(seconds: Double)
    /// The sandbox stopped the scan helper while it loaded the file: a
    /// constructor tried what a presenter may not (SECURITY.md).
    case stopped(ConfinementViolation)
    /// Not loaded: `--sandbox=require` was given and the sandbox lacks a
    /// layer (what it lacks, ``ConfinementReport/summary``).
    case sandboxIncomplete(String)
    /// No scan helper could load the file (one could not be started, or
    /// did not answer as one); the host runs no third-party plugin code
    /// itself.
    case unscanned
    /// One descriptor is unusable. `index` is nil when the library has only
    /// one; `id` is the descriptor's id when it could be read.
    case descriptor(index: Int?, id: String?, DescriptorProblem)
    /// The file's description (its notes, ``PluginDescription``) cannot be
    /// read: why, in the host's words.
    case invalidDescription(String)
    /// A descriptor the loaded file returns differs from the file's
    /// description in `field` (or `presenters`: in how many there are).
    case disagreesWithDescription(index: Int?, id: String?, field: String)
    /// The scan helper's report of the file breaks the rules of what the
    /// host's own loader reports (``ReportProblem``): the file's own code
    /// wrote it. `record` is the record at fault (0-based), when one is.
    case untrustedReport(record: Int?, ReportProblem)

    /// What is wrong with one descriptor.
    public enum DescriptorProblem: Error, Sendable, Hashable, Codable, CustomStringConvertible {
        /// `struct_size` is smaller than the ABI 1.0 descriptor.
        case tooSmall(size: UInt32, minimum: Int)
        /// `struct_size` is far larger than any descriptor could be: the memory is not a descriptor.
        case tooLarge(size: UInt32, limit: Int)
        /// Built for another ABI major.
        case abiMajor(plugin: ABIVersion)
        /// Built for a newer minor than the host's.
        case abiNewerMinor(plugin: ABIVersion)
        /// A required string field is NULL.
        case missingField(String)
        /// A required string field is "".
        case emptyField(String)
        /// `id` or `extends` breaks the `[a-z0-9._-]{1,64}` rule; carries the value, quoted and escaped.
        case invalidId(field: String, value: String)
        /// A string field is not valid UTF-8.
        case invalidUTF8(field: String)
        /// A string field holds a control character, or a bidirectional
        /// formatting character (it would reach the terminal).
        case controlCharacter(field: String)
        /// A string field is longer than the host accepts.
        case tooLong(field: String, limit: Int)
        /// A description's list or version names something this host does
        /// not know (`known`: what it does know).
        case unknownName(field: String, known: [String])

        /// What is wrong, what the plugin chose in it escaped (`PrintableText`).
        public var reason: String { PrintableText.escaping(parts.reason) }
        /// What its author should do.
        public var advice: String { PrintableText.escaping(parts.advice) }
        /// One line: the reason, then the advice.
        public var description: String { "\(reason); \(advice)" }

        private var parts: (reason: String, advice: String) {
            let host = ABIVersion.host
            let rebuild = "set struct_size = sizeof(presenter_descriptor) and rebuild"
            let required = "every presenter needs an id, a name and a version"
            switch self {
            case .tooSmall(let size, let minimum):
                return (
                    "descriptor struct_size is \(size) bytes, smaller than the ABI 1.0 descriptor (\(minimum) bytes)",
                    rebuild
                )
            case .tooLarge(let size, let limit):
                return (
                    "descriptor struct_size is \(size) bytes, more than \(limit): the descriptor is corrupt", rebuild
                )
            case .abiMajor(let plugin):
                return (
                    "built for ABI \(plugin), this host supports \(host.major).x (\(host))",
                    "rebuild the plugin against this host's presenter_abi.h"
                )
            case .abiNewerMinor(let plugin):
                return ("built for ABI \(plugin), this host supports \(host)", "update presenter-host")
            case .missingField(let field):
                return ("\(field) is missing (NULL)", required)
            case .emptyField(let field):
                return ("\(field) is empty", required)
            case .invalidId(let field, let value):
                return (
                    "invalid \(field) \(value): an id is 1 to \(PluginLoadFailure.idMaxBytes) bytes of a-z, 0-9, '.', '_' and '-'",
                    "fix it and rebuild"
                )
            case .invalidUTF8(let field):
                return ("\(field) is not valid UTF-8", "strings in a descriptor must be UTF-8, fix it and rebuild")
            case .controlCharacter(let field):
                return (
                    "\(field) contains a control or bidirectional formatting character",
                    "use printable text on one line"
                )
            case .tooLong(let field, let limit):
                return ("\(field) is longer than \(limit) bytes", "shorten it")
            case .unknownName(let field, let known):
                return ("\(field) names what this host does not know", "use \(known.joined(separator: ", "))")
            }
        }
    }

    /// The end of every disagreement's text: how `check` tells one among a
    /// presenter process's refusals, which reach it as text.
    package static let descriptionFixText =
        "describe exactly what the descriptors hold (PRESENTER_DESCRIBE, or the SDK's description) and rebuild"

    /// The longest id in bytes, `PRESENTER_ID_MAX`.
    package static let idMaxBytes = Int(PRESENTER_ID_MAX)

    /// The id of the one presenter this is about: a refused descriptor's,
    /// when it could be read. A failure of the whole file has none.
    public var presenterId: String? {
        if case .descriptor(_, let id, _) = self { return id }
        return nil
    }

    /// Why opening `path` failed with `error` (an errno), as a user should read it.
    static func opening(_ path: String, error: Int32) -> PluginLoadFailure {
        error == ENXIO ? .notRegularFile(kind: "a socket") : .file(DiscoveryFailure(reaching: path, error: error))
    }

    /// What is wrong, what the plugin chose in it escaped (`PrintableText`):
    /// `check`, which speaks to the file's author, shows it with a fix of
    /// its own.
    public var reason: String { PrintableText.escaping(parts.reason) }
    /// What whoever installed the file should do, escaped; nil when the
    /// reason says it.
    public var advice: String? { parts.advice.map(PrintableText.escaping) }
    /// One line: the reason, then the advice.
    public var description: String { advice.map { "\(reason); \($0)" } ?? reason }

    private var parts: (reason: String, advice: String?) {
        let remove = "remove it from the plugin directory"
        let removeOrRebuild = "remove or rebuild it"
        switch self {
        case .file(let failure):
            return (failure.reason, failure.advice)
        case .replacedByLink:
            return (
                "was replaced by a symbolic link while plugins were being loaded",
                "check who changes the plugin directory"
            )
        case .directory:
            return (
                "is a directory, not a shared library", "a plugin is a .so file, rename or move the directory"
            )
        case .notRegularFile(let kind):
            return ("is \(kind), not a shared library file", remove)
        case .empty:
            return ("is empty, not an ELF shared library", "rebuild or reinstall it")
        case .tooLarge(let size):
            return (
                "is \(size) bytes, larger than the \(PluginFile.largestFile >> 20) MiB a plugin file may be",
                "strip it (strip --strip-debug) or \(remove)"
            )
        case .notELF(let looksLikeText):
            return looksLikeText
                ? ("is a text file, not an ELF shared library", remove)
                : ("is not an ELF shared library (no ELF magic number)", remove)
        case .wrongClass(let detail):
            return (detail, "rebuild it for this host")
        case .truncated(let detail):
            return (detail, "rebuild or reinstall it")
        case .malformed(let detail):
            return (detail, "rebuild it")
        case .wrongByteOrder(let plugin, let host):
            return ("built for \(plugin) machines, this host is \(host)", "rebuild it for this host")
        case .wrongMachine(let plugin, let host):
            return ("built for \(plugin), this host is \(host)", "rebuild it for this host")
        case .notSharedObject(let kind):
            return ("is \(kind), not a shared library", "link it with -shared")
        case .otherSwiftToolchain(let plugin, let runtime, let swift):
            return (
                "is a Swift plugin built with another Swift toolchain than presenter-host's Swift \(swift) runtime (it names \(plugin), the runtime \(runtime))",
                "rebuild it with the Swift toolchain presenter-host was built with"
            )
        case .dlopen(let message):
            return (message, "install the libraries it needs or rebuild it")
        case .noEntryPoint:
            return ("not a presenter plugin: no presenter_plugin_descriptor symbol", remove)
        case .noPresenter:
            return (
                "entry point returns no presenter: presenter_plugin_descriptor(0) is NULL",
                "return at least one descriptor"
            )
        case .tooManyPresenters(let limit):
            return (
                "entry point returned more than \(limit) presenters", "it must return NULL after the last one"
            )
        case .crashed(let signal):
            return (
                "crashed while loading (\(SignalName.of(signal))): the file is corrupt or not built for this ABI",
                removeOrRebuild
            )
        case .exited(let status):
            return (
                "ended the process while loading (exit status \(status)): the file is corrupt or a constructor calls exit",
                removeOrRebuild
            )
        case .timedOut(let seconds):
            return (
                "did not finish loading within \(Self.seconds(seconds)): a constructor or the entry point hangs",
                removeOrRebuild
            )
        case .stopped(let violation):
            return (
                "was stopped while loading: it tried to \(violation.attempt) (\(violation.invocation)), which presenters may not",
                "remove it, or ask its author to (SECURITY.md)"
            )
        case .sandboxIncomplete(let lacking):
            return (
                "not loaded: the sandbox is incomplete here (\(lacking)) and --sandbox=require runs third-party plugin code only with every layer (SECURITY.md)",
                nil
            )
        case .unscanned:
            return (
                "could not be loaded: no scan helper could be started to load it apart (presenter-host runs no third-party plugin code itself)",
                "check that presenter-host-plugins is installed beside presenter-host (or in ../libexec/presenter-host/) and that processes can be started, and run it again"
            )
        case .descriptor(let index, let id, let problem):
            let place: String? =
                switch (index, id) {
                case let (index?, id?): "descriptor \(index) ('\(id)'): "
                case let (index?, nil): "descriptor \(index): "
                case let (nil, id?): "presenter '\(id)': "
                case (nil, nil): nil
                }
            return ((place ?? "") + problem.reason, problem.advice)
        case .invalidDescription(let reason):
            return ("has a description that cannot be read: \(reason) (presenter_abi.h, \"The description\")", nil)
        case .disagreesWithDescription(let index, let id, let field):
            let what =
                field == "presenters"
                ? "returns another number of presenters than its description describes"
                : "descriptor\(index.map { " \($0)" } ?? "")\(id.map { " ('\($0)')" } ?? "") has another \(field) than the file's description says"
            return (what, Self.descriptionFixText)
        case .untrustedReport(let record, let problem):
            let place = record.map { "record \($0): " } ?? ""
            return (
                "was refused: its scan report breaks the host's rules (\(place)\(problem))",
                "only plugin code writes such a report (a constructor that reached the scan helper's channel): remove the file, or ask its author to fix it (SECURITY.md)"
            )
        }
    }

    /// `5 s`, `0.5 s`; a value no `Int` holds (a cache line may say
    /// anything) as it is, never a trap.
    private static func seconds(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? "\(Int(value)) s" : "\(value) s"
    }
}
