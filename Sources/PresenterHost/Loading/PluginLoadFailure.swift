import PresenterABI

/// Why a plugin file, or one presenter in it, was not loaded. `description`
/// is the one-line reason shown to the user after the file's path: what is
/// wrong and what to do.
public enum PluginLoadFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing has this name (any more).
    case missing
    /// A symbolic link whose target does not exist.
    case danglingLink(target: String)
    /// `open` failed; carries `strerror`'s text.
    case unreadable(String)
    /// A directory named like a library.
    case directory
    /// A FIFO, socket or device named like a library.
    case notRegularFile(kind: String)
    /// A file of zero bytes.
    case empty
    /// No ELF magic; `looksLikeText` when the start is printable text.
    case notELF(looksLikeText: Bool)
    /// 32-bit (or unknown class) code on a 64-bit host.
    case wrongClass(String)
    /// Big-endian code on a little-endian host or the reverse.
    case wrongByteOrder(plugin: String, host: String)
    /// Code for another machine.
    case wrongMachine(plugin: String, host: String)
    /// An ELF file that is not a shared object (an executable, an object file...).
    case notSharedObject(kind: String)
    /// The file ends before its headers or segments do.
    case truncated(String)
    /// The headers are inconsistent.
    case malformed(String)
    /// `dlopen` failed; carries `dlerror`'s text (missing dependency, undefined symbol...).
    case dlopen(String)
    /// The library loads but has no `presenter_plugin_descriptor`.
    case noEntryPoint
    /// The entry point returns NULL for index 0.
    case noPresenter
    /// The entry point kept returning descriptors past the limit.
    case tooManyPresenters(limit: Int)
    /// One descriptor is unusable; `index` is nil when the library has only one.
    case descriptor(index: Int?, DescriptorProblem)
    /// Another file earlier in the search path has a presenter with the same id.
    case shadowed(id: String, by: String)
    /// The presenter extends an id that no loaded presenter has.
    case baseNotFound(id: String, base: String)
    /// The presenter extends one that exists but could not be used (see its own error).
    case baseUnavailable(id: String, base: String)
    /// The presenter's extension chain loops; `cycle` starts and ends with the same id.
    case extensionCycle(id: String, cycle: [String])

    /// What is wrong with one descriptor.
    public enum DescriptorProblem: Error, Sendable, Hashable, CustomStringConvertible {
        /// `struct_size` is smaller than the ABI 1.0 descriptor.
        case tooSmall(size: UInt32, minimum: Int)
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
        /// A string field holds a control character (it would reach the terminal).
        case controlCharacter(field: String)
        /// A string field is longer than the host accepts.
        case tooLong(field: String, limit: Int)

        public var description: String {
            let host = ABIVersion.host
            switch self {
            case .tooSmall(let size, let minimum):
                return "descriptor struct_size is \(size) bytes, smaller than the ABI 1.0 descriptor (\(minimum) bytes); set struct_size = sizeof(presenter_descriptor) and rebuild"
            case .abiMajor(let plugin):
                return "built for ABI \(plugin), this host supports \(host.major).x (\(host)); rebuild the plugin against this host's presenter_abi.h"
            case .abiNewerMinor(let plugin):
                return "built for ABI \(plugin), this host supports \(host); update presenter-host"
            case .missingField(let field):
                return "\(field) is missing (NULL); every presenter needs an id, a name and a version"
            case .emptyField(let field):
                return "\(field) is empty; every presenter needs an id, a name and a version"
            case .invalidId(let field, let value):
                return "invalid \(field) \(value): an id is 1 to \(PluginLoadFailure.idMaxBytes) bytes of a-z, 0-9, '.', '_' and '-'; fix it and rebuild"
            case .invalidUTF8(let field):
                return "\(field) is not valid UTF-8; strings in a descriptor must be UTF-8"
            case .controlCharacter(let field):
                return "\(field) contains a control character; use printable text on one line"
            case .tooLong(let field, let limit):
                return "\(field) is longer than \(limit) bytes; shorten it"
            }
        }
    }

    /// The longest id in bytes, `PRESENTER_ID_MAX`.
    static let idMaxBytes = Int(PRESENTER_ID_MAX)

    public var description: String {
        switch self {
        case .missing:
            return "does not exist"
        case .danglingLink(let target):
            return "is a dangling symbolic link to '\(target)'; fix or remove the link"
        case .unreadable(let reason):
            return "cannot be read: \(reason); check its permissions"
        case .directory:
            return "is a directory, not a shared library; a plugin is a .so file"
        case .notRegularFile(let kind):
            return "is \(kind), not a shared library file"
        case .empty:
            return "is empty, not an ELF shared library; rebuild or reinstall it"
        case .notELF(let looksLikeText):
            return looksLikeText
                ? "is a text file, not an ELF shared library"
                : "is not an ELF shared library (no ELF magic number)"
        case .wrongClass(let detail), .truncated(let detail), .malformed(let detail):
            return detail
        case .wrongByteOrder(let plugin, let host):
            return "built for \(plugin) machines, this host is \(host); rebuild it for this host"
        case .wrongMachine(let plugin, let host):
            return "built for \(plugin), this host is \(host); rebuild it for this host"
        case .notSharedObject(let kind):
            return "is \(kind), not a shared library; link it with -shared"
        case .dlopen(let message):
            return message
        case .noEntryPoint:
            return "not a presenter plugin: no presenter_plugin_descriptor symbol"
        case .noPresenter:
            return "entry point returns no presenter: presenter_plugin_descriptor(0) is NULL"
        case .tooManyPresenters(let limit):
            return "entry point returned more than \(limit) presenters; it must return NULL after the last one"
        case .descriptor(let index, let problem):
            return index.map { "descriptor \($0): \(problem)" } ?? problem.description
        case .shadowed(let id, let winner):
            return "presenter '\(id)' is shadowed by \(winner), which comes first in the search path; remove one of them"
        case .baseNotFound(let id, let base):
            return "presenter '\(id)' extends '\(base)', which was not found; install it or put it on the search path"
        case .baseUnavailable(let id, let base):
            return "presenter '\(id)' extends '\(base)', which did not load (see its error)"
        case .extensionCycle(let id, let cycle):
            return "presenter '\(id)' is in an extension cycle (\(cycle.joined(separator: " -> "))); make one of them extend another presenter or none"
        }
    }
}
