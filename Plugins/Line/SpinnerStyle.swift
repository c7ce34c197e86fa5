import PresenterSDK

/// The spinners a user picks by name with the `spinner` option: gum's set
/// (charmbracelet/bubbles' spinner package), each with its frames and its
/// interval as gum has them, so a script moved from `gum spin --spinner
/// moon` looks the same here. Data, not code: a new style is one line.
enum SpinnerStyle {
    /// The style used when the option is unset or names none of ``named``:
    /// gum's default.
    static let defaultName = "dot"

    /// The styles by name, in the order the docs list them.
    static let named: [(name: String, frames: [String], perSecond: UInt64)] = [
        ("dot", ["⣾ ", "⣽ ", "⣻ ", "⢿ ", "⡿ ", "⣟ ", "⣯ ", "⣷ "], 10),
        ("line", ["|", "/", "-", "\\"], 10),
        ("minidot", ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"], 12),
        ("jump", ["⢄", "⢂", "⢁", "⡁", "⡈", "⡐", "⡠"], 10),
        ("pulse", ["█", "▓", "▒", "░"], 8),
        ("points", ["∙∙∙", "●∙∙", "∙●∙", "∙∙●"], 7),
        ("globe", ["🌍", "🌎", "🌏"], 4),
        ("moon", ["🌑", "🌒", "🌓", "🌔", "🌕", "🌖", "🌗", "🌘"], 8),
        ("monkey", ["🙈", "🙉", "🙊"], 3),
        ("meter", ["▱▱▱", "▰▱▱", "▰▰▱", "▰▰▰", "▰▰▱", "▰▱▱", "▱▱▱"], 7),
        ("hamburger", ["☱", "☲", "☴", "☲"], 3),
    ]

    /// The spinner called `name` (`nil`: the default); in a view without
    /// Unicode every style is `line`'s ASCII, which any terminal shows.
    /// An unknown name is the default's (``LineOptions`` logs it).
    static func spinner(named name: String?, unicode: Bool) -> Spinner {
        let wanted = name ?? defaultName
        let found = named.first { $0.name == wanted }
        let style = unicode ? found ?? named.first { $0.name == defaultName }! : named[1]
        return Spinner(frames: style.frames, interval: 1_000_000_000 / style.perSecond)
    }
}
