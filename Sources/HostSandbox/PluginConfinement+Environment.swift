import HostSystem

/// The environment a process that runs plugin code gets (the scan
/// helper, the presenter process): a few variables of the host's by name,
/// those naming something only when their value is a name, and the host's
/// own settings for it. Nothing else of the user's environment reaches
/// plugin code.
extension PluginConfinement {
    /// The variables of the host's environment a process that runs plugin
    /// code gets, by name; every other is left out. A presenter needs the
    /// locale (its text, gettext), TERM and NO_COLOR; the host's own
    /// process needs what loading it may need (LD_LIBRARY_PATH, which the
    /// Swift runtime may be found through and whose folders may be read),
    /// its crash reporter's switch (SWIFT_BACKTRACE) and tracing
    /// (PRESENTER_HOST_DEBUG, EngineNote.debugVariable, read by the
    /// presenter process's engine). Nothing else of the user's: API keys
    /// and tokens in the environment would otherwise be a presenter's to
    /// copy into its thread name, its command line (/proc/PID/comm and
    /// cmdline, which every local user reads), its log or its description.
    static let passedVariables: Set<String> = [
        "LANG", "LANGUAGE", "TERM", "NO_COLOR", "LD_LIBRARY_PATH", "SWIFT_BACKTRACE", "PRESENTER_HOST_DEBUG",
        // The locale's categories, POSIX's and glibc's: by name, as any
        // other `LC_` variable (which sshd forwards) may hold anything.
        "LC_ALL", "LC_CTYPE", "LC_COLLATE", "LC_MESSAGES", "LC_MONETARY", "LC_NUMERIC", "LC_TIME", "LC_ADDRESS",
        "LC_IDENTIFICATION", "LC_MEASUREMENT", "LC_NAME", "LC_PAPER", "LC_TELEPHONE",
    ]

    /// The variables whose value names something (a locale, a terminal
    /// type, a list of languages): passed only when their value is such a
    /// name, at most 128 bytes of `A-Z a-z 0-9 . _ - @ : + =`, so that a
    /// secret kept in one is not passed either.
    static let nameValuedVariables: Set<String> = passedVariables.subtracting([
        "NO_COLOR", "LD_LIBRARY_PATH", "SWIFT_BACKTRACE", "PRESENTER_HOST_DEBUG",
    ])

    /// Whether `value` is what a variable of ``nameValuedVariables`` holds.
    static func isName(_ value: Substring) -> Bool {
        value.utf8.count <= 128
            && value.utf8.allSatisfy { byte in
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                    || "._-@:+=".utf8.contains(byte)
            }
    }

    /// Whether the variable `name` of the host's environment is passed
    /// (``passedVariables``; in a test build the test switch and the test
    /// fixtures' `FIXTURE_*` and `INTRUDER_*` settings; in a sanitized build
    /// the sanitizer's options).
    static func passes(_ name: Substring) -> Bool {
        if passedVariables.contains(String(name)) { return true }
        #if PRESENTER_HOST_TEST_SWITCHES
            if name == offVariable || name.hasPrefix("FIXTURE_") || name.hasPrefix("INTRUDER_") { return true }
        #endif
        #if PRESENTER_SANITIZER
            if ["ASAN_OPTIONS", "TSAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"].contains(name) { return true }
        #endif
        return false
    }

    /// The environment of a process that runs plugin code: the entries of
    /// `environment` (`NAME=value`) that ``passes(_:)`` lets through, then
    /// `setting` (what the host itself gives that process, whatever its
    /// name), then ``namespaceVariable``.
    static func environment(from environment: [String], setting: [String: String]) -> [String] {
        var passed: [String] = environment.compactMap { entry in
            guard let equals = entry.firstIndex(of: "=") else { return nil }
            let name = entry[..<equals], value = entry[entry.index(after: equals)...]
            guard passes(name), setting[String(name)] == nil, name != namespaceVariable else { return nil }
            if nameValuedVariables.contains(String(name)) && !isName(value) { return nil }
            // A presenter needs to know NO_COLOR is set, not what it holds.
            if name == "NO_COLOR" { return value.isEmpty ? nil : "NO_COLOR=1" }
            return entry
        }
        passed += setting.filter { $0.key != namespaceVariable }.sorted { $0.key < $1.key }.map {
            "\($0.key)=\($0.value)"
        }
        passed.append("\(namespaceVariable)=\(NamespaceIdentity.ofThisProcess.encoded)")
        return passed
    }
}
