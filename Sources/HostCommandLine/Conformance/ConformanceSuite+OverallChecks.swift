import HostEngine
import HostPlugins
import HostText

/// The checks of ``ConformanceSuite`` over all of one presenter's sessions:
/// `sandbox`, `base` and `budget`.
extension ConformanceSuite {
    /// `sandbox`: FAIL when the sandbox stopped a session's presenter
    /// process, naming the rule and the call.
    func sandboxResult(_ plugin: PresenterPlugin, _ stopped: PresenterFailure?) -> ConformanceResult {
        guard let stopped, case .stopped(let violation) = stopped.reason else {
            return result(plugin, "sandbox", .pass, nil, nil)
        }
        let place = stopped.hook.map { " in \($0.rawValue)" } ?? ""
        return result(
            plugin, "sandbox", .fail, "the sandbox stopped it\(place): \(violation)", Self.sandboxFix(violation))
    }

    /// For each hook the presenter overrides and its base has, the base's
    /// was reached (through host->base_*), as the traces show.
    func baseResult(_ chain: [PresenterPlugin], log: [PresenterLogEntry]) -> ConformanceResult {
        let (plugin, base) = (chain[0], chain[1])
        let reached = Set(
            log.compactMap { entry -> String? in
                guard entry.message.hasPrefix(EngineNote.traceTag) else { return nil }
                return entry.message.dropFirst(EngineNote.traceTag.count).split(separator: "(").first.map(String.init)
            })
        // The nearest base in the chain that has each hook.
        let overridden = [Hook.show, .hide, .progress, .render, .key].map(\.rawValue).filter(plugin.hookNames.contains)
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

    /// `budget`: FAIL for a hook that hung, WARN for one that took more than
    /// half its budget.
    func budgetResult(_ plugin: PresenterPlugin, _ observed: Observed, host: String) -> ConformanceResult {
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
}
