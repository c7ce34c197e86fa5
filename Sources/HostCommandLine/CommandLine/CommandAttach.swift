import HostPlugins
import HostRuntime

extension PresenterRuntime {
    /// Attaches a command's view, with the `presenter` the command resolved
    /// (nil: the one the view names). When that fails (an unknown presenter,
    /// a create that failed in process) the runtime is shut down, so the
    /// terminal is as it was, and the reason is the command's error.
    func attachForCommand(_ view: ScreenletView, presenter: PresenterChain? = nil) throws(CommandError) -> Screenlet {
        do throws(RuntimeError) {
            return try attach(view, presenter: presenter)
        } catch {
            shutdown()
            throw .failure("\(error)")
        }
    }
}
