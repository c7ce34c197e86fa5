import HostRuntime

/// A runtime held weakly: the log and the events print above its region
/// while it lives, and never keep it alive.
struct WeakRuntime {
    weak var runtime: PresenterRuntime?
}
