import HostRuntime
import HostSystem

extension PresenterSession {
    /// What a command asks to draw on, as it begins its session.
    enum Target: Equatable {
        /// stderr: a region in a terminal, plain lines elsewhere; plain
        /// lines anyway when `static` (`run --static`).
        case standardError(static: Bool = false)
        /// The whole terminal, the alternate screen (the Add Bookmark screen).
        case fullScreen
    }

    /// What a session draws on, decided once, when it begins
    /// (``decide(_:environment:)``): whether a presenter runs at all
    /// follows from it, before anything is started.
    enum Drawing: Equatable {
        /// Plain lines on stderr, which the host prints itself: a presenter
        /// would draw nothing there, so none runs (no presenter process
        /// starts and no plugin file is loaded; the presenter is only
        /// resolved, for its errors).
        case plainLines
        /// A region of the terminal on stderr, drawn by the presenter.
        case region
        /// The whole terminal, the alternate screen.
        case fullScreen

        /// What `target` draws on with `environment`: plain lines on
        /// stderr when asked (`--static`), when `ACCESSIBLE` asks for static
        /// output (``TerminalEnvironment/wantsStatic(_:)``), or when stderr
        /// is no terminal for frames (not a terminal, `TERM=dumb`, CI:
        /// ``BackendFactory/mode(for:environment:)``).
        static func decide(_ target: Target, environment: [String: String]) -> Drawing {
            guard case .standardError(let plain) = target else { return .fullScreen }
            if plain || TerminalEnvironment.wantsStatic(environment)
                || BackendFactory.mode(for: .standardError, environment: environment) == .plain
            {
                return .plainLines
            }
            return .region
        }

        /// The backend's mode: frames in a terminal, or plain lines.
        var mode: BackendFactory.Mode { self == .plainLines ? .plain : .terminal }
    }
}
