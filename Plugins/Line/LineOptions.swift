import PresenterSDK

/// What the user chose for the row, read once through the host's `option`
/// service (`--option spinner=moon`, `line.spinner = moon` in the
/// config file): the spinner's style and the colours of the spinner and of
/// the message. A value it does not know is logged and its default used:
/// an option can never fail a run.
struct LineOptions {
    /// The colour names a user may give, and their styles; `default` is the
    /// terminal's own colour. The host drops colour where the user asked
    /// for none (`NO_COLOR`, `--color never`), so these are only wishes.
    static let colors: [(name: String, style: View.Style)] = [
        ("default", []), ("red", .red), ("green", .green), ("yellow", .yellow), ("blue", .blue),
        ("magenta", .magenta), ("cyan", .cyan),
    ]

    /// The `spinner` option as given (nil: unset), resolved per view, which
    /// says whether it shows Unicode.
    let spinnerName: String?
    let spinnerStyle: View.Style
    let titleStyle: View.Style
    /// `grace-ms`: a command that ends within it draws nothing.
    let grace: UInt64

    init(host: Host) {
        let name = host.option("spinner")
        if let name, !SpinnerStyle.named.contains(where: { $0.name == name }) {
            let known = SpinnerStyle.named.map(\.name).joined(separator: ", ")
            host.log(
                "option spinner=\"\(name)\" is not a spinner (\(known)); using \(SpinnerStyle.defaultName)",
                level: .warning)
        }
        spinnerName = name
        spinnerStyle = Self.color("spinner-color", default: .cyan, host: host)
        titleStyle = Self.color("title-color", default: [], host: host)
        grace = UInt64(min(host.integerOption("grace-ms", default: 0), 1 << 40)) * 1_000_000
    }

    /// The colour option `key`, `fallback` when unset or unknown (logged).
    private static func color(_ key: String, default fallback: View.Style, host: Host) -> View.Style {
        guard let name = host.option(key) else { return fallback }
        if let known = colors.first(where: { $0.name == name }) { return known.style }
        let names = colors.map(\.name).joined(separator: ", ")
        host.log("option \(key)=\"\(name)\" is not a colour (\(names)); using its default", level: .warning)
        return fallback
    }
}
