import HostRuntime

extension PresenterRuntime {
    /// Attaches a command's view. When that fails (an unknown presenter, a
    /// create that failed in process) the runtime is shut down, so the
    /// terminal is as it was, and the reason is the command's error.
    func attachForCommand(_ view: ScreenletView) throws(CommandError) -> Screenlet {
        do throws(RuntimeError) {
            return try attach(view)
        } catch {
            shutdown()
            throw .failure("\(error)")
        }
    }
}
