extension PresenterRuntime {
    /// Where the command's prompt comes from (``TerminalBackend/showsPrompts(from:)``):
    /// handed to the backend on the presenter thread when it draws on a
    /// terminal, without waiting for that thread (a presenter still loading
    /// may hold it). Any thread.
    package func showsPrompts(from unshown: @escaping @Sendable () -> [UInt8]) {
        _ = enqueue { [self] in (backend as? TerminalBackend)?.showsPrompts(from: unshown) }
    }
}
