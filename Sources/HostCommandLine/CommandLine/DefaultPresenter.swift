import HostText

/// The presenter `run` and `drive` show when `--presenter` does not say,
/// and the presenter options the user set once: `--presenter` first, then
/// `PRESENTER_HOST_PRESENTER`, then the settings file's `presenter = <id>`
/// (``SettingsFile``), then ``builtIn``. The file's `<id>.<option>` lines
/// come under the command line's `--option`.
///
/// A setting that is wrong never fails the command: one line on stderr
/// says what is wrong and where, and the command goes on as if it were not
/// there; a default presenter that is not installed gives way to mbhud
/// (``PresentationOptions/presenterSource``), with one line too. (add-bookmark keeps its screen's own presenter, addbookmark, as
/// the original screen chooses its presenter itself.)
enum DefaultPresenter {
    /// The environment variable that names the default presenter.
    static let variable = "PRESENTER_HOST_PRESENTER"
    /// The presenter when nothing says another.
    static let builtIn = "mbhud"

    /// `invocation` with the user's settings when it is `run` or `drive`;
    /// says what is wrong with them on stderr.
    static func applied(
        to invocation: PresenterHostCommand.Invocation, environment: [String: String]
    ) -> PresenterHostCommand.Invocation {
        let (result, problems): (PresenterHostCommand.Invocation, [String])
        switch invocation {
        case .run(var options):
            (options.presentation, problems) = applied(to: options.presentation, environment: environment)
            result = .run(options)
        case .drive(var options):
            (options.presentation, problems) = applied(to: options.presentation, environment: environment)
            result = .drive(options)
        default:
            return invocation
        }
        for line in problems { PresenterHostCommand.writeStandardError(PrintableText.escaping(line) + "\n") }
        return result
    }

    /// `presentation` with the user's default presenter (unless
    /// `--presenter` chose one) and the settings file's options under its
    /// own; `problems` are the lines to say on stderr.
    static func applied(
        to presentation: PresentationOptions, environment: [String: String]
    ) -> (presentation: PresentationOptions, problems: [String]) {
        var problems: [String] = []
        var settings = SettingsFile()
        if let path = SettingsFile.path(environment) {
            do throws(SettingsFile.Problem) {
                settings = try SettingsFile.load(path: path)
            } catch {
                problems.append("presenter-host: \(error.message) (ignored: going on without it)")
            }
        }
        var result = presentation
        // The command line wins: `--option spinner=dot` over the file's
        // `line.spinner = moon` too (the host looks the qualified key up first).
        let given = presentation.presenterOptions.keys
        let fromFile = settings.presenterOptions.filter { key, _ in !given.contains { key.hasSuffix("." + $0) } }
        result.presenterOptions = fromFile.merging(presentation.presenterOptions) { $1 }
        guard !presentation.presenterChosen else { return (result, problems) }
        if let named = environment[variable], !named.isEmpty {
            if SettingsFile.isName(named) {
                result.presenter = named
                result.presenterSource = variable
                return (result, problems)
            }
            problems.append(
                "presenter-host: \(variable)='\(SettingsFile.quoted(named))' is not a presenter id (1 to 64 of a-z 0-9 . _ -); ignored: see presenter-host --list --ids"
            )
        }
        result.presenter = settings.presenter ?? builtIn
        result.presenterSource = settings.presenter == nil ? nil : SettingsFile.path(environment)
        return (result, problems)
    }
}
