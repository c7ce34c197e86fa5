/// Which layers of the sandbox a process that runs plugin code is under,
/// and, for each that is not wholly in force, why (SECURITY.md): what
/// `presenter-host --sandbox-info` prints, `run -v` says once, and
/// `--sandbox=require` asks to be complete.
///
/// A missing layer is always said, never silently weaker: the process that
/// entered the sandbox (``PluginConfinement/enter(_:)``) writes it, and sends
/// it to the host (the presenter process in its hello, the scan helper in
/// its header).
package struct ConfinementReport: Equatable, Sendable {
    /// The sandbox's layers, each of which holds some rules by itself.
    package enum Layer: String, CaseIterable, Sendable {
        /// No new privileges (no set-user-id, no file capabilities), no capabilities.
        case privileges
        /// The system-call filter: no exec, no new process, no socket, no
        /// signal, trace or pidfd but to itself, no write to a file.
        case seccomp
        /// Files read-only in the shared-library folders, nothing written;
        /// no TCP; signals and abstract sockets only within.
        case landlock
        /// User, PID and network namespaces of its own, and a mount
        /// namespace whose root holds only the library folders.
        case namespaces
        /// No core files, no file size, capped descriptors and threads.
        case limits
    }

    /// How much of a layer holds.
    package enum State: String, Sendable {
        /// Wholly in force.
        case on
        /// In force, without some of its rules (the detail says which).
        case partial
        /// Not in force: the kernel or the machine does not allow it.
        case missing
        /// Turned off on purpose (`PRESENTER_HOST_SANDBOX_OFF`, in a test build only).
        case off
    }

    package struct Entry: Equatable, Sendable {
        package let layer: Layer
        package let state: State
        /// What holds, and what does not and why ("ABI 7: files, TCP,
        /// signals, abstract sockets"; "the kernel refused a user namespace (EPERM)").
        package let detail: String

        package init(layer: Layer, state: State, detail: String) {
            (self.layer, self.state, self.detail) = (layer, state, detail)
        }
    }

    package var entries: [Entry]

    /// The entry of `layer` (every report has one for each).
    func entry(_ layer: Layer) -> Entry {
        entries.first { $0.layer == layer } ?? Entry(layer: layer, state: .missing, detail: "not reported")
    }

    /// The layers not wholly in force.
    package var incomplete: [Entry] { entries.filter { $0.state != .on } }

    /// True when every layer is wholly in force.
    package var isComplete: Bool { incomplete.isEmpty }

    /// One line a layer, for `--sandbox-info`: its name, its state and its detail.
    package var lines: [String] {
        func padded(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(1, width - text.count))
        }
        return entries.map { entry in
            let name = padded(entry.layer.rawValue, 12)
            let state: String
            switch entry.state {
            case .on: state = "in force"
            case .partial: state = "in part"
            case .missing: state = "MISSING"
            case .off: state = "OFF"
            }
            return "  \(name)\(padded(state, 10))\(entry.detail)"
        }
    }

    /// One phrase for `run -v`: "all in force (…)" or what is not.
    package var summary: String {
        if isComplete { return "every layer in force (\(entries.map(\.layer.rawValue).joined(separator: ", ")))" }
        let said = incomplete.map { entry in
            switch entry.state {
            case .off: "\(entry.layer.rawValue) off (\(entry.detail))"
            case .partial: "\(entry.layer.rawValue) in part (\(entry.detail))"
            default: "\(entry.layer.rawValue) missing (\(entry.detail))"
            }
        }
        return said.joined(separator: "; ")
    }

    /// The report with `layer`'s entry replaced.
    func replacing(_ layer: Layer, with state: State, _ detail: String) -> ConfinementReport {
        ConfinementReport(
            entries: entries.map { $0.layer == layer ? Entry(layer: layer, state: state, detail: detail) : $0 })
    }

    // MARK: - On the wire

    /// One line an entry, `layer<TAB>state<TAB>detail`: what the processes
    /// send the host.
    package var encoded: String {
        entries.map { "\($0.layer.rawValue)\t\($0.state.rawValue)\t\($0.detail)" }.joined(separator: "\n")
    }

    /// A report from ``encoded``; nil when it is not one (a layer unknown or
    /// missing, a state unknown).
    package init?(encoded: String) {
        var entries: [Entry] = []
        for line in encoded.split(separator: "\n", omittingEmptySubsequences: true) {
            let fields = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, let layer = Layer(rawValue: String(fields[0])),
                let state = State(rawValue: String(fields[1])), !entries.contains(where: { $0.layer == layer })
            else { return nil }
            entries.append(Entry(layer: layer, state: state, detail: String(fields[2])))
        }
        guard entries.count == Layer.allCases.count else { return nil }
        self.entries = entries
    }

    package init(entries: [Entry]) {
        self.entries = entries
    }
}
