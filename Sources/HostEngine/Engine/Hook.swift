/// A step of a presenter's life that the host names: a descriptor's hooks,
/// and the presenter process's start and its loading of plugin files,
/// which failures, budgets and traces name as hooks too. The raw value is
/// the name the host prints and the presenter protocol carries (the names
/// a descriptor record lists, `DescriptorRules.hookNames`): a value the
/// compiler checks, where a misspelt string would be another hook.
public enum Hook: String, Sendable, Hashable, CaseIterable {
    /// The descriptor's hooks, `presenter_descriptor`'s members of the
    /// same names (docs/ABI.md says when each is called).
    case create, destroy, show, hide, progress, render, key
    /// The presenter process starting, until it said hello.
    case start
    /// The presenter process loading plugin files.
    case load

    /// The hooks a descriptor may define, in descriptor order.
    public static let descriptorHooks: [Hook] = [.create, .destroy, .show, .hide, .progress, .render, .key]

    /// The hooks that answer with a status (and set_error's message).
    package static let withOutcome: Set<Hook> = [.show, .hide, .progress]

    /// The presenter process starting or loading files: these get the
    /// start-up budget, not a hook's.
    package var isStartUp: Bool { self == .start || self == .load }
}
