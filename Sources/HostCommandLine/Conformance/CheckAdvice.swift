import HostPlugins
import HostSystem
import HostText

/// What `check` tells a plugin's author to change: a line of C to write, a
/// flag to build with, or a command to run with the real file, folder and
/// id in it; never "see the docs" or "as the reason says".
///
/// The loader's failures carry advice for whoever installed a file
/// ("remove it from the plugin directory", their `advice`); `check` speaks
/// to its author, so it shows their `reason` (what is wrong) and a fix
/// that says what to change.
enum CheckAdvice {
    // MARK: - A file or a descriptor the loader refused

    /// The reason and the fix for `file`, which loading refused with `failure`.
    static func loading(_ failure: PluginLoadFailure, file: String) -> (reason: String, fix: String) {
        let reason = failure.reason
        switch failure {
        case .noEntryPoint:
            return (
                "not a presenter plugin: it exports no presenter_plugin_descriptor symbol (none is defined, or -fvisibility=hidden hid it)",
                #"export the entry point: __attribute__((visibility("default"))) const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) (in C++, inside extern "C")"#
            )
        case .noPresenter:
            return (reason, "return your descriptor for index 0: if (index == 0) return &descriptor; return NULL;")
        case .tooManyPresenters:
            return (
                reason,
                "return NULL past your last presenter: return index < sizeof descriptors / sizeof *descriptors ? &descriptors[index] : NULL;"
            )
        case .descriptor(_, _, let problem):
            return (reason, fix(for: problem))
        case .dlopen(let message):
            return (
                message,
                "see what it lacks with ldd -r \(ShellWord.quoted(file)), then link the library that defines a missing symbol (-l...) or install the one not found"
            )
        case .crashed:
            return (
                reason,
                "see where a constructor crashes: gdb -batch -ex run -ex bt --args env LD_PRELOAD=\(ShellWord.quoted(file)) true; if that runs clean, make presenter_plugin_descriptor return pointers to static descriptors whose strings are static"
            )
        case .exited:
            return (
                reason,
                "remove the exit() or _exit() call that runs while it loads (an __attribute__((constructor)) function, a C++ static object's constructor)"
            )
        case .timedOut:
            return (
                reason,
                "return from every constructor and from presenter_plugin_descriptor at once: no waits, sleeps, locks or network; start work in create"
            )
        case .otherSwiftToolchain(_, _, let swift):
            return (
                reason,
                "rebuild it with the toolchain presenter-host was built with: swift --version must say Swift version \(swift)"
            )
        case .notELF:
            return (
                reason,
                "give check the library your build writes (cc -shared -fPIC -o libname.so name.c), not a source or text file"
            )
        case .empty:
            return (reason, "build it again, and check that the link step succeeds: the file has no bytes")
        case .tooLarge:
            return (
                reason, "build it without debug information, or strip it: strip --strip-debug \(ShellWord.quoted(file))"
            )
        case .directory:
            return (reason, "give check the library in it: presenter-host check \(ShellWord.quoted(file))/*.so")
        case .notRegularFile:
            return (reason, "give check the library file itself")
        case .wrongClass:
            return (reason, "build it as 64-bit code with this machine's compiler: cc -shared -fPIC, without -m32")
        case .wrongByteOrder(_, let host), .wrongMachine(_, let host):
            return (reason, "build it with a compiler for \(host): this machine's cc, not a cross compiler")
        case .notSharedObject:
            return (reason, "add -shared -fPIC to the command that links \(PathName(file).lastComponent)")
        case .truncated, .malformed:
            return (reason, "build it again and copy it whole: the file is cut short or damaged")
        case .replacedByLink:
            return (reason, "run check again once nothing replaces \(ShellWord.quoted(file)) while it is read")
        case .file(let failure):
            return discovery(failure, file: file)
        case .stopped(let violation):
            return (reason, ConformanceSuite.sandboxFix(violation))
        case .sandboxIncomplete:
            return (
                reason,
                "run check where every layer of the sandbox is in force (presenter-host --sandbox-info), or without --sandbox require"
            )
        case .unscanned:
            return (
                reason,
                "check that presenter-host-plugins is installed beside presenter-host (or in ../libexec/presenter-host/) and that processes can be started here (ulimit -u), then run check again"
            )
        case .invalidDescription:
            return (
                reason,
                "write the description with PRESENTER_DESCRIBE and PRESENTER_FIELD entries (presenter_abi.h), one note per presenter with its index, or with the Swift SDK's PresenterDescription plugin"
            )
        case .disagreesWithDescription(_, _, let field):
            return (
                reason,
                field == "presenters"
                    ? "describe every presenter the entry point returns, one PRESENTER_DESCRIBE with index=N each, and no other"
                    : "give \(field) the same value in the description and in the descriptor: define it once (#define) and use it in both"
            )
        case .untrustedReport:
            return (
                reason,
                "write on no descriptor the plugin did not open itself: take out the code that writes on the scan helper's report channel"
            )
        }
    }

    /// The fix for a file whose descriptors disagree with its description
    /// (the reason names the field).
    static let disagreeing =
        "give every field the same value in the description and in the descriptor, and describe each presenter the entry point returns: define each value once (#define) and use it in both"

    /// The reason and fix for a file without a description (ABI 1.3).
    static func undescribed(file: String) -> (reason: String, fix: String) {
        (
            "it has no description: presenter-host runs its code in a scan helper to list it",
            "describe each presenter in the file: PRESENTER_DESCRIBE(name, PRESENTER_FIELD(index, \"0\") PRESENTER_FIELD(id, \"...\") ...) in C or C++ (presenter_abi.h, \"The description\"), a .presenters file with the SDK's PresenterDescription plugin in Swift"
        )
    }

    /// The reason and fix for a file that fails discovery's checks.
    private static func discovery(_ failure: DiscoveryFailure, file: String) -> (reason: String, fix: String) {
        let reason = PrintableText.escaping(failure.reason)
        switch failure {
        case .insecure(.writable(let path, let isDirectory, let who, let mode)):
            return (
                "\(isDirectory ? "its directory is " : "")writable by \(who)",
                "chmod \(mode) \(ShellWord.quoted(path)), or check it with --allow-insecure-plugins (for development only)"
            )
        case .insecure(.foreignOwner(let path, let isDirectory, let owner)):
            return (
                "\(isDirectory ? "its directory is " : "")owned by \(owner), not by root or you",
                "copy it into a folder of yours, or chown root \(ShellWord.quoted(path)) as root"
            )
        case .unreadable:
            return (reason, "make it readable: chmod u+r \(ShellWord.quoted(file))")
        case .missing, .nameNotUTF8, .danglingLink, .symlinkLoop, .linkOutsideDirectory:
            return (reason, failure.advice ?? reason)
        }
    }

    /// What to change in the descriptor, field by field.
    static func fix(for problem: PluginLoadFailure.DescriptorProblem) -> String {
        switch problem {
        case .tooSmall, .tooLarge:
            return "set .struct_size = sizeof(presenter_descriptor), the first field"
        case .abiMajor:
            return
                "build against this host's presenter_abi.h (cc $(pkg-config --cflags presenter-abi) ...) and set .abi_major = PRESENTER_ABI_MAJOR, .abi_minor = PRESENTER_ABI_MINOR"
        case .abiNewerMinor(let plugin):
            return
                "set .abi_minor = PRESENTER_ABI_MINOR from this host's presenter_abi.h (ABI \(ABIVersion.host)), or update presenter-host to one with ABI \(plugin)"
        case .missingField(let field), .emptyField(let field):
            return "set .\(field) = \(example(field)) (required, not empty)"
        case .invalidId(let field, let value):
            return "set .\(field) = \"\(id(like: value))\" (or another id of those characters)"
        case .invalidUTF8(let field):
            return "write .\(field) as UTF-8: save the source as UTF-8, with no \\x escapes that make other bytes"
        case .controlCharacter(let field):
            return
                "take the control character (a newline, a tab, ESC) or the bidirectional mark out of .\(field): one line of printable text"
        case .tooLong(let field, let limit):
            return "shorten .\(field) to \(limit) bytes or fewer"
        case .unknownName(let field, let known):
            return "write \(field) in the description with \(known.joined(separator: ", ")) only"
        }
    }

    /// A value a required field could have.
    private static func example(_ field: String) -> String {
        switch field {
        case "id": return "\"me.my-presenter\""
        case "version": return "\"1.0.0\""
        default: return "\"My Presenter\""
        }
    }

    /// The nearest valid id to `value` (as the loader quotes it: `'Not An
    /// Id'`): lower case, every other character a `-`, at most the limit.
    static func id(like value: String) -> String {
        let text =
            value.count >= 2 && value.hasPrefix("'") && value.hasSuffix("'") ? value.dropFirst().dropLast() : value[...]
        var id = ""
        for character in text.lowercased() {
            let valid = character.isASCII && (character.isLetter || character.isNumber || "._-".contains(character))
            if valid {
                id.append(character)
            } else if !id.isEmpty && !id.hasSuffix("-") {
                id.append("-")
            }
        }
        while id.hasSuffix("-") { id.removeLast() }
        let bounded = String(id.prefix(PluginLoadFailure.idMaxBytes))
        return bounded.isEmpty ? "me.my-presenter" : bounded
    }

    // MARK: - A presenter whose base is not there

    /// The reason and fix for `plugin`, whose base `base` is not usable
    /// from `registry` (or makes a cycle through `bases`): the refused
    /// file that declares it and why, when there is one, as `run` says it.
    static func unavailableBase(
        _ base: String, of plugin: PresenterPlugin, bases: [PresenterPlugin]?, registry: PresenterRegistry?
    ) -> (reason: String, fix: String) {
        if let bases, bases.contains(where: { $0.id == plugin.id }) {
            let cycle = [plugin.id] + bases.prefix { $0.id != plugin.id }.map(\.id) + [plugin.id]
            return (
                "extends '\(base)', which leads back to it: an extension cycle (\(cycle.joined(separator: " -> ")))",
                "set .extends to a presenter that does not extend '\(plugin.id)', or to NULL"
            )
        }
        for error in registry?.errors ?? [] {
            guard let refusal = error.explaining(presenter: base) else { continue }
            return (
                "extends '\(base)', but \(refusal)",
                "fix that file first (presenter-host check \(ShellWord.quoted(error.path)) says how), or set .extends to another presenter"
            )
        }
        return (
            "extends '\(base)', which is not on the search path (or does not load)",
            "set .extends to an id that presenter-host --list --ids shows, or add --plugin-dir with the folder of the file that declares '\(base)'"
        )
    }

    // MARK: - A presenter process that ended

    /// `presenter-host` with the options that find `chain` as `check` did:
    /// the folder of each of its files (the checked one's first) and, when
    /// `check` loads under it, --allow-insecure-plugins.
    static func host(finding chain: [PresenterPlugin], policy: PluginPolicy) -> String {
        var folders: [String] = []
        for plugin in chain {
            let folder = PathName(plugin.path).parent
            if !folders.contains(folder) { folders.append(folder) }
        }
        let options =
            (policy.allowInsecure ? [PluginPolicy.allowInsecureFlag] : []) + folders.flatMap { ["--plugin-dir", $0] }
        return (["presenter-host"] + options.map(ShellWord.quoted)).joined(separator: " ")
    }
}
