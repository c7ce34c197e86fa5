import HostSystem

/// Chooses how progress reaches a stream (stderr, normally).
public enum BackendFactory {
    /// The two ways progress can be shown.
    public enum Mode: Sendable, Equatable {
        /// Frames in a region of the terminal (``TerminalBackend``).
        case terminal
        /// Plain lines, no escape codes (``PlainBackend``).
        case plain
    }

    /// The mode for `fd`: plain when it is not a terminal, `TERM` is `dumb`,
    /// unset or empty, or `CI` says CI
    /// (``TerminalEnvironment/wantsPlainLines(isTerminal:_:)``).
    public static func mode(for fd: FileDescriptor, environment: [String: String]) -> Mode {
        TerminalEnvironment.wantsPlainLines(isTerminal: TerminalShim.isTerminal(fd), environment) ? .plain : .terminal
    }

    /// A backend for `fd` as the environment and the `--color` choice say.
    public static func make(
        for fd: FileDescriptor = .standardError,
        environment: [String: String] = ProcessEnvironment.current,
        colorMode: ColorMode = .auto, regionRows: Int = 5,
        interactive: Bool = false, terminalProgress: Bool = false
    ) -> RenderBackend {
        let unicode = TerminalEnvironment.isUnicode(environment)
        switch mode(for: fd, environment: environment) {
        case .plain:
            let cols = TerminalShim.windowSize(fd)?.cols ?? 80
            return PlainBackend(fd: fd, unicode: unicode, cols: cols, rows: regionRows)
        case .terminal:
            return TerminalBackend(
                fd: fd, regionRows: regionRows,
                color: colorMode.isEnabled(environment: environment),
                unicode: unicode, interactive: interactive, terminalProgress: terminalProgress)
        }
    }
}
