import HostEngine
import HostPlugins
import HostSystem
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
/// (only inside the view). The file itself gets `loads` and `description`
/// (read from the file, and agreeing with what loading it in a presenter
/// process returns; a WARN for a file without one, which only a scan
/// helper can list).
///
/// The scenarios are in ConformanceSuite+Scenarios, the checks over all
/// sessions in ConformanceSuite+OverallChecks, what to change in
/// ConformanceSuite+Fixes.
struct ConformanceSuite {
    var configuration: PresenterProcessConfiguration
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
        let file = (try? PathName.realPath(path)) ?? path
        // What a file holds is read from its description, or comes from a
        // scan helper, sandboxed as every process that runs plugin code:
        // `check` runs none itself, and none of a described file outside
        // the presenter processes of its checks.
        let loaded: PluginLibrary.Contents
        let described: Bool
        switch Result(catching: { () throws(PluginLoadFailure) in
            try PluginFile.describe(file, policy: configuration.policy)
        }) {
        case .failure(let failure):
            let (reason, fix) = CheckAdvice.loading(failure, file: path)
            return [fileResult(.fail, reason, fix)]
        case .success(let description?):
            loaded = description.contents
            described = true
        case .success(nil):
            switch scanner.scan([file], policy: configuration.policy)[0] ?? .failure(.unscanned) {
            case .success(let contents):
                loaded = contents
                described = false
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
        }
        var results = [fileResult(.pass, "\(loaded.count) presenter\(loaded.count == 1 ? "" : "s")", nil)]
        if !described {
            let (reason, fix) = CheckAdvice.undescribed(file: path)
            results.append(descriptionResult(path, .warn, reason, fix))
        }
        // A described file's descriptors are compared with its description
        // where it loads: in the first presenter process, before the checks.
        var agreement = !described
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
                if !agreement {
                    agreement = true
                    let result = agreementResult(chain, path: path)
                    results.append(result)
                    // The presenter process refuses the file: no check could run.
                    if result.verdict == .fail { return results }
                }
                results += check(chain)
            }
        }
        if !agreement { results.append(descriptionResult(path, .pass, "read from the file without loading it", nil)) }
        return results
    }

    /// The `description` result of a described file: a presenter process
    /// loads it for `chain` (its first usable presenter's) and compares
    /// what its entry point returns with its description
    /// (`PluginLibrary.agree`), where only the presenter process runs its code.
    private func agreementResult(_ chain: [PresenterPlugin], path: String) -> ConformanceResult {
        let session = CheckSession(chain: chain, configuration: configuration, geometry: Self.defaultGeometry)
        defer { _ = session.close() }
        do throws(PresenterFailure) {
            try session.attach(geometry: Self.defaultGeometry)
        } catch {
            // The loader's word for a disagreement carries its fix; any other
            // failure to start is the checks' to report, one by one.
            let text = "\(error)"
            if text.contains(PluginLoadFailure.descriptionFixText) {
                return descriptionResult(path, .fail, text, CheckAdvice.disagreeing)
            }
        }
        return descriptionResult(
            path, .pass, "read from the file without loading it; loaded, its descriptors agree", nil)
    }

    /// The file's `description` result.
    private func descriptionResult(
        _ path: String, _ verdict: ConformanceResult.Verdict, _ reason: String?, _ fix: String?
    ) -> ConformanceResult {
        ConformanceResult(
            path: path, presenterId: nil, check: "description", verdict: verdict, reason: reason, fix: fix)
    }

    // Internal, not private, as are Observed and the scenarios: the suite's
    // extensions (ConformanceSuite+Scenarios, +OverallChecks, +Fixes) share
    // them. Nothing outside `check`'s files uses them.

    /// One check's result for `plugin`.
    func result(
        _ plugin: PresenterPlugin, _ check: String, _ verdict: ConformanceResult.Verdict,
        _ reason: String?, _ fix: String?
    ) -> ConformanceResult {
        ConformanceResult(
            path: plugin.path, presenterId: plugin.id, check: check, verdict: verdict, reason: reason, fix: fix)
    }

    // MARK: - One presenter

    /// What every session left behind, for the checks over all of them.
    struct Observed {
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
}
