import Dispatch
import FoundationEssentials
import Glibc
import HostEngine
import HostPlugins
import HostText
import PresenterABI

/// `presenter-host check`'s conformance suite: every presenter of a plugin
/// file put through what a host may do to it, each check in a sandboxed
/// presenter process of its own, so that a crash or a hang is that check's
/// FAIL and never the suite's end.
///
/// The checks, for each presenter: `descriptor` (its fields),
/// `create-destroy` (many instances, in pairs), `messages` (show and hide
/// with empty, very long, multi-line, non-ASCII, wide and right-to-left
/// messages), `failure` (hide after a failure, with and without a message),
/// `progress` (0, 0.5, 1 and unknown), `view-sizes` (1×1 to 500×200),
/// `keys` (an interactive view), `interactors` (many at once), `done` (it
/// stops drawing after the outcome), `base` (for a presenter that extends
/// another: the base's hooks are reached), and over all of them `budget`
/// (each hook's time), `sandbox` (nothing a presenter may not do: the
/// sandbox stopped no session, SECURITY.md), `output` (nothing printed), `services` (no host
/// service called from another thread or outside a hook) and `drawing`
/// (only inside the view). The file itself gets `loads`.
struct ConformanceSuite {
    var configuration: PresenterProcess.Configuration
    /// Where the bases of presenters that extend others are found.
    var registry: () -> PresenterRegistry

    static let defaultGeometry = ViewGeometry(
        cols: 80, rows: 5, flags: UInt32(PRESENTER_VIEW_UNICODE | PRESENTER_VIEW_ANIMATED))
    /// The messages show and hide get, by what they test.
    static let messages: [(label: String, text: String)] = [
        ("an empty", ""), ("a plain", "Saving bookmark..."),
        ("a very long (10 000 characters)", String(repeating: "long message ", count: 770)),
        ("a multi-line", "first line\nsecond line\n\nfourth"), ("a non-ASCII", "Café, naïve, Ελληνικά, Приве́т"),
        ("a wide (CJK, emoji)", "保存中… 🚀👩‍👩‍👧 ｆｕｌｌ"), ("a right-to-left", "שומר את הסימנייה... حفظ"),
    ]
    static let sizes: [(cols: Int, rows: Int)] = [(1, 1), (2, 1), (10, 2), (40, 5), (80, 5), (500, 200)]

    /// Checks every presenter of the file at `path`.
    func check(path: String, scanner: PluginScanner) -> [ConformanceResult] {
        func fileResult(_ verdict: ConformanceResult.Verdict, _ reason: String?, _ fix: String?) -> ConformanceResult {
            ConformanceResult(path: path, presenterId: nil, check: "loads", verdict: verdict, reason: reason, fix: fix)
        }
        // Loading opens a real path (no link in it: `PluginFile`).
        let file =
            realpath(path, nil).map { resolved in
                defer { free(resolved) }
                return String(cString: resolved)
            } ?? path
        // What the file holds comes from the scan helper, sandboxed as every
        // process that runs plugin code: `check` runs none itself.
        let loaded: PluginLibrary.Contents
        switch scanner.scan([file], policy: configuration.policy)[0] ?? .failure(.unscanned) {
        case .success(let contents):
            loaded = contents
        case .failure(let failure):
            let (reason, fix) = CheckAdvice.loading(failure, file: path)
            var results = [fileResult(.fail, reason, fix)]
            if case .stopped(let violation) = failure {
                results.append(
                    ConformanceResult(
                        path: path, presenterId: nil, check: "sandbox", verdict: .fail,
                        reason: "the sandbox stopped it while loading: \(violation)",
                        fix: Self.sandboxFix(violation)))
            }
            return results
        }
        var results = [fileResult(.pass, "\(loaded.count) presenter\(loaded.count == 1 ? "" : "s")", nil)]
        var registry: PresenterRegistry?
        for (index, outcome) in loaded.enumerated() {
            switch outcome {
            case .failure(let failure):
                let (reason, fix) = CheckAdvice.loading(failure, file: path)
                results.append(
                    ConformanceResult(
                        path: path, presenterId: "descriptor \(index)", check: "descriptor",
                        verdict: .fail, reason: reason, fix: fix))
            case .success(let plugin):
                var chain = [plugin]
                if let base = plugin.extends {
                    registry = registry ?? self.registry()
                    let found = registry?.chain(for: base)
                    guard let bases = found, !bases.contains(where: { $0.id == plugin.id }) else {
                        let (reason, fix) = CheckAdvice.unavailableBase(
                            base, of: plugin, bases: found, registry: registry)
                        results.append(result(plugin, "descriptor", .fail, reason, fix))
                        continue
                    }
                    chain += bases
                }
                results += check(chain)
            }
        }
        return results
    }

    private func result(
        _ plugin: PresenterPlugin, _ check: String, _ verdict: ConformanceResult.Verdict,
        _ reason: String?, _ fix: String?
    ) -> ConformanceResult {
        ConformanceResult(
            path: plugin.path, presenterId: plugin.id, check: check, verdict: verdict, reason: reason, fix: fix)
    }

    // MARK: - One presenter

    /// What every session left behind, for the checks over all of them.
    private struct Observed {
        var slowest: [String: Double] = [:]
        var hung: PresenterFailure?
        var stopped: PresenterFailure?
        var log: [PresenterLogEntry] = []
        var printed: [PresenterLogEntry] = []
    }

    private func check(_ chain: [PresenterPlugin]) -> [ConformanceResult] {
        let plugin = chain[0]
        let host = CheckAdvice.host(finding: chain, policy: configuration.policy)
        var results = [descriptorResult(plugin)]
        var observed = Observed()
        let scenarios: [(String, (CheckSession, inout CheckFindings) throws(PresenterFailure) -> Void)] = [
            ("create-destroy", createDestroy), ("messages", messages), ("failure", failure), ("progress", progress),
            ("view-sizes", viewSizes), ("keys", keys), ("interactors", interactors), ("done", done),
        ]
        for (name, scenario) in scenarios {
            let session = CheckSession(chain: chain, configuration: configuration, geometry: Self.defaultGeometry)
            var findings = CheckFindings()
            do throws(PresenterFailure) {
                try scenario(session, &findings)
            } catch {
                findings.fail(
                    error.description, fix: Self.fix(for: error, budget: configuration.hookTimeout, host: host))
                if case .hung = error.reason { observed.hung = observed.hung ?? error }
                if case .stopped = error.reason { observed.stopped = observed.stopped ?? error }
            }
            let (log, printed) = session.close()
            observed.log += log
            observed.printed += printed
            observed.slowest.merge(session.slowest) { max($0, $1) }
            results.append(result(plugin, name, findings.verdict, findings.reason, findings.fix))
        }
        if chain.count > 1 { results.append(baseResult(chain, log: observed.log)) }
        results.append(sandboxResult(plugin, observed.stopped))
        results.append(budgetResult(plugin, observed, host: host))
        results.append(
            noteResult(
                plugin, "output", observed.printed.first.map { "it wrote to stdout or stderr: \($0.message)" },
                .fail, "draw on the view and log with host->log; never write to a descriptor"))
        results.append(
            noteResult(
                plugin, "services", firstNote(EngineNote.misuseTag, in: observed.log), .fail,
                "call host services only from inside a hook, on the thread that called it (no threads of your own, no kept pointers)"
            ))
        results.append(
            noteResult(
                plugin, "drawing", firstNote(EngineNote.clippedTag, in: observed.log), .warn,
                "draw only inside the view: read view_size in every render and fit what you draw to it"))
        return results
    }

    private func firstNote(_ tag: String, in log: [PresenterLogEntry]) -> String? {
        log.first { $0.message.hasPrefix(tag) }.map {
            "\($0.presenterId.map { "\($0): " } ?? "")\($0.message.dropFirst(tag.count))"
        }
    }

    private func noteResult(
        _ plugin: PresenterPlugin, _ check: String, _ problem: String?,
        _ verdict: ConformanceResult.Verdict, _ fix: String
    ) -> ConformanceResult {
        guard let problem else { return result(plugin, check, .pass, nil, nil) }
        return result(plugin, check, verdict, PrintableText.escaping(problem), fix)
    }

    /// `sandbox`: FAIL when the sandbox stopped a session's presenter
    /// process, naming the rule and the call.
    private func sandboxResult(_ plugin: PresenterPlugin, _ stopped: PresenterFailure?) -> ConformanceResult {
        guard let stopped, case .stopped(let violation) = stopped.reason else {
            return result(plugin, "sandbox", .pass, nil, nil)
        }
        let place = stopped.hook.map { " in \($0)" } ?? ""
        return result(
            plugin, "sandbox", .fail, "the sandbox stopped it\(place): \(violation)", Self.sandboxFix(violation))
    }

    /// What to change, for a plugin the sandbox stopped.
    static func sandboxFix(_ violation: ConfinementViolation) -> String {
        "remove the \(violation.call) call: a presenter only draws, with the host's services (docs/ABI.md, \"What a presenter may do, and what it may not\")"
    }

    private func descriptorResult(_ plugin: PresenterPlugin) -> ConformanceResult {
        var findings = CheckFindings()
        if plugin.description == nil {
            findings.warn(
                "it has no description", fix: "set description to one line saying what it shows (--list -v shows it)")
        }
        return result(
            plugin, "descriptor", findings.verdict,
            findings.reason ?? "\(plugin.name) \(plugin.version), ABI \(plugin.abiVersion)", findings.fix)
    }

    // MARK: - Scenarios

    /// Checks a status-returning hook's outcome.
    private static func expectOK(_ outcome: HookOutcome, _ situation: String, _ findings: inout CheckFindings) {
        guard outcome.failed else { return }
        let message = outcome.message.map { ": \(PrintableText.escaping($0))" } ?? ""
        findings.fail(
            "\(outcome.presenterId).\(outcome.hook) returned status \(outcome.status) for \(situation)\(message)",
            fix: "return PRESENTER_OK for every valid call; an error status is for a failure of the presenter itself")
    }

    private func createDestroy(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        let views = (1...32).map { ViewID($0) }
        try session.engine.attach(views[0], chain: session.chain, elements: CheckSession.elements)
        try session.engine.setGeometry(Self.defaultGeometry)
        for view in views.dropFirst() {
            try session.engine.attach(view, chain: session.chain, elements: CheckSession.elements)
        }
        for view in views {
            let interactor = session.interactor()
            Self.expectOK(
                try session.show("Instance \(view)", interactor, view: view), "one of 32 instances", &findings)
            try session.render(view: view)
            Self.expectOK(try session.hide(nil, interactor, view: view), "one of 32 instances", &findings)
        }
        for view in views.reversed() { try session.detach(view) }
        for _ in 0..<32 {
            try session.engine.attach(100, chain: session.chain, elements: CheckSession.elements)
            try session.detach(100)
        }
    }

    private func messages(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(geometry: Self.defaultGeometry)
        for (label, text) in Self.messages {
            let interactor = session.interactor()
            Self.expectOK(try session.show(text, interactor), "\(label) message", &findings)
            try session.render()
            try session.render(after: 100_000_000)
            Self.expectOK(try session.hide(text, interactor), "\(label) message", &findings)
            try session.render()
            try session.render(after: 10_000_000_000)
        }
        try session.detach()
    }

    private func failure(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(geometry: Self.defaultGeometry)
        let failures: [(String?, InteractorError, String)] = [
            (
                "Could not save the bookmark",
                InteractorError(code: 1, domain: "validation", message: "URL cannot be empty"),
                "a failure with a message"
            ),
            (nil, InteractorError(code: 3, domain: "process", message: "exit status 3"), "a failure without a message"),
            ("Failed", InteractorError(code: 500, domain: "http", message: ""), "a failure with an empty description"),
        ]
        for (message, error, situation) in failures {
            let interactor = session.interactor()
            Self.expectOK(try session.show("Working", interactor), situation, &findings)
            try session.render()
            Self.expectOK(try session.hide(message, interactor, failure: error), situation, &findings)
            try session.render()
            try session.render(after: 10_000_000_000)
        }
        try session.detach()
    }

    private func progress(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(geometry: Self.defaultGeometry)
        var interactor = session.interactor(progress: -1)
        Self.expectOK(try session.show("Downloading", interactor), "a show with unknown progress", &findings)
        try session.render()
        for value in [0, 0.5, 1] {
            interactor.progress = value
            Self.expectOK(try session.progress(interactor), "progress \(value)", &findings)
            try session.render()
        }
        Self.expectOK(try session.hide("Downloaded", interactor), "a hide after progress 1", &findings)
        try session.render(after: 10_000_000_000)
        try session.detach()
    }

    private func viewSizes(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(geometry: Self.defaultGeometry)
        for (cols, rows) in Self.sizes {
            try session.engine.setGeometry(ViewGeometry(cols: cols, rows: rows, flags: Self.defaultGeometry.flags))
            var interactor = session.interactor(progress: -1)
            Self.expectOK(try session.show("Saving bookmark...", interactor), "a \(cols)x\(rows) view", &findings)
            try session.render()
            interactor.progress = 0.5
            Self.expectOK(try session.progress(interactor), "a \(cols)x\(rows) view", &findings)
            try session.render(after: 100_000_000)
            Self.expectOK(try session.hide("Bookmark saved!", interactor), "a \(cols)x\(rows) view", &findings)
            try session.render()
            try session.render(after: 10_000_000_000)
        }
        // ASCII only, as off a UTF-8 terminal.
        try session.engine.setGeometry(ViewGeometry(cols: 80, rows: 5, flags: UInt32(PRESENTER_VIEW_ANIMATED)))
        let interactor = session.interactor()
        Self.expectOK(try session.show("Saving", interactor), "a view without Unicode", &findings)
        try session.render()
        Self.expectOK(try session.hide("Saved", interactor), "a view without Unicode", &findings)
        try session.render(after: 10_000_000_000)
        try session.detach()
    }

    private func keys(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(
            geometry: ViewGeometry(
                cols: 80, rows: 5, flags: Self.defaultGeometry.flags | UInt32(PRESENTER_VIEW_INTERACTIVE)))
        let codes: [UInt32] = [0x61, 13, 27, 0x20, 0x1F600, 0x5D0, 0x10FFFF]
        for code in codes { _ = try session.key(code) }
        let interactor = session.interactor()
        Self.expectOK(try session.show("Saving", interactor), "an interactive view", &findings)
        for code in codes {
            _ = try session.key(code)
            try session.render()
        }
        Self.expectOK(
            try session.hide(
                "Failed", interactor, failure: InteractorError(code: 1, domain: "http", message: "HTTP 500")),
            "an interactive view", &findings)
        for code in codes {
            _ = try session.key(code)
            try session.render()
        }
        try session.detach()
    }

    private func interactors(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(geometry: Self.defaultGeometry)
        let running = (0..<64).map { session.interactor(progress: $0 % 2 == 0 ? -1 : 0) }
        for (index, interactor) in running.enumerated() {
            Self.expectOK(try session.show("Interactor \(index)", interactor), "64 interactors at once", &findings)
            if index % 8 == 0 { try session.render() }
        }
        // They end in another order than they started, some failing.
        for (index, interactor) in running.enumerated().sorted(by: { ($0.offset * 37) % 64 < ($1.offset * 37) % 64 }) {
            let failure = index % 5 == 0 ? InteractorError(code: 1, domain: "check", message: "failed") : nil
            Self.expectOK(
                try session.hide(index % 3 == 0 ? nil : "Done \(index)", interactor, failure: failure),
                "64 interactors at once", &findings)
            if index % 8 == 0 { try session.render() }
        }
        try session.render()
        try session.render(after: 10_000_000_000)
        try session.detach()
    }

    /// After the last hide, the presenter shows its outcome and then stops:
    /// a render draws nothing and it asks for no further frame.
    private func done(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(geometry: Self.defaultGeometry)
        let interactor = session.interactor()
        Self.expectOK(try session.show("Saving", interactor), "a show", &findings)
        try session.render()
        Self.expectOK(try session.hide("Saved", interactor), "a hide", &findings)
        try session.render()
        // min-show-ms (500) + outcome-limit-ms (5000) later, the host takes the view away anyway.
        let drawing = try session.render(after: 5_500_000_000)
        if !drawing.isEmpty || session.engine.frameRequests[session.view] != nil {
            findings.warn(
                drawing.isEmpty
                    ? "it still asks for frames 5.5 s after the last hide"
                    : "it still draws 5.5 s after the last hide",
                fix: "once the outcome has shown, draw nothing and stop asking for frames (docs/ABI.md, \"Lifecycle\")")
        }
        try session.detach()
    }

    // MARK: - Over all sessions

    /// For each hook the presenter overrides and its base has, the base's
    /// was reached (through host->base_*), as the traces show.
    private func baseResult(_ chain: [PresenterPlugin], log: [PresenterLogEntry]) -> ConformanceResult {
        let (plugin, base) = (chain[0], chain[1])
        let reached = Set(
            log.compactMap { entry -> String? in
                guard entry.message.hasPrefix(EngineNote.traceTag) else { return nil }
                return entry.message.dropFirst(EngineNote.traceTag.count).split(separator: "(").first.map(String.init)
            })
        // The nearest base in the chain that has each hook.
        let overridden = ["show", "hide", "progress", "render", "key"].filter { plugin.hookNames.contains($0) }
        let missed = overridden.compactMap { hook -> String? in
            guard let owner = chain.dropFirst().first(where: { $0.hookNames.contains(hook) }) else {
                return nil
            }
            return reached.contains("\(owner.id).\(hook)") ? nil : "\(hook) (\(owner.id).\(hook) never ran)"
        }
        guard missed.isEmpty else {
            return result(
                plugin, "base", .fail,
                "it extends '\(base.id)' but never calls its base's " + missed.joined(separator: ", "),
                "call host->base_\(missed[0].split(separator: " ")[0])(ctx, view, ...) from your hook, or leave the hook NULL to inherit it"
            )
        }
        return result(plugin, "base", .pass, "'\(base.id)' reached", nil)
    }

    private func budgetResult(_ plugin: PresenterPlugin, _ observed: Observed, host: String) -> ConformanceResult {
        let budget = configuration.hookTimeout
        let milliseconds = Int(budget * 1000)
        if let hung = observed.hung {
            return result(plugin, "budget", .fail, hung.description, Self.fix(for: hung, budget: budget, host: host))
        }
        guard let (hook, time) = observed.slowest.max(by: { $0.value < $1.value }) else {
            return result(plugin, "budget", .pass, nil, nil)
        }
        let took = CFormat.string("%.1f", time * 1000)
        if time > budget / 2 {
            return result(
                plugin, "budget", .warn, "\(hook) took up to \(took) ms, more than half its \(milliseconds) ms budget",
                "do less in \(hook): no I/O, no sleeps, no locks; precompute in show and hide")
        }
        return result(plugin, "budget", .pass, "slowest: \(hook), \(took) ms of \(milliseconds) ms", nil)
    }

    /// What to change, for a presenter process that ended or hung; `host`
    /// is the `presenter-host` command line that finds the presenter.
    static func fix(for failure: PresenterFailure, budget: Double, host: String) -> String {
        switch failure.reason {
        case .crashed:
            return
                "see where it crashes, in presenter-host's own process: gdb -ex run -ex bt --args \(host) run --in-process --presenter \(failure.presenterId) -- sleep 1"
        case .exited:
            return "never call exit() or _exit() in a plugin; return an error status instead"
        case .hung:
            return
                "return from every hook within \(Int(budget * 1000)) ms: never block, sleep or wait; animate with request_frame"
        case .createFailed:
            return "create must succeed whenever memory can be had; set_error says why it did not"
        case .protocolViolation:
            return "log at most a few lines a hook and draw within the view"
        case .couldNotStart:
            return "see why it does not load: \(host) --list -v"
        case .stopped(let violation):
            return sandboxFix(violation)
        case .sandboxIncomplete:
            return
                "run check where every layer of the sandbox is in force (presenter-host --sandbox-info), or without --sandbox require"
        }
    }
}
