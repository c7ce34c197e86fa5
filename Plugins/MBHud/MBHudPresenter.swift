import PresenterSDK

/// The default presenter, after MBProgressHUD: a bordered box centred on the
/// view with a spinner (or a progress bar) and the working message, then a
/// check mark or a cross with the success or failure message. What stays
/// after the host has left (its last render, `View.Flags.final`) is that
/// outcome as one line: `✔ Built`, `✖ Build failed: exit status 2`.
///
/// Options (milliseconds): "min-show-ms" (default 500), "grace-ms" (default 0),
/// "failure-hold-ms" (default 3000; how long a failure shows in a view that
/// takes no keys), "outcome-limit-ms" (the host's limit on how long an
/// outcome may show; none by default).
final class MBHudPresenter: Presenter {
    /// From mbhud.presenters, which is also the library's description.
    static let info = PresenterInfo.mbhud

    let host: Host
    private var session: HUDSession

    init(host: Host) {
        self.host = host
        // Options come as text from any host: a malformed one falls back to
        // its default (integerOption logs it), a huge one is capped.
        let duration = { (key: String, value: Int) in
            HUDSession.duration(milliseconds: host.integerOption(key, default: value))
        }
        session = HUDSession(
            options: HUDSession.Options(
                minShow: duration("min-show-ms", 500),
                grace: duration("grace-ms", 0),
                failureHold: duration("failure-hold-ms", 3000),
                outcomeLimit: host.option("outcome-limit-ms") == nil
                    ? HUDSession.longest : duration("outcome-limit-ms", 0)))
    }

    func show(view: View, message: String, interactor: InteractorInfo) throws {
        session.show(id: interactor.id, message: message, progress: interactor.progress, at: host.now)
    }

    func hide(view: View, message: String?, interactor: InteractorInfo, failure: FailureInfo?) throws {
        session.hide(
            id: interactor.id, message: message, failureText: failure?.message,
            holdUntilKey: view.flags.contains(.interactive), at: host.now)
    }

    func progress(view: View, interactor: InteractorInfo) throws {
        session.progress(id: interactor.id, progress: interactor.progress, message: interactor.message, at: host.now)
    }

    func render(view: View, now: UInt64) {
        // The view's last render: the outcome stays, as one line.
        if view.flags.contains(.final) {
            session.finalOutcome?.drawLine(on: view)
            return
        }
        let frame = session.frame(at: now)
        var wakeAt = frame.wakeAt
        // The spinner turns by itself (draw_cycle); where the host's table
        // lacks the service it asks for its next frame.
        if let content = frame.content, let next = content.draw(on: view, at: now) {
            wakeAt = min(wakeAt ?? next, next)
        }
        if let wakeAt { host.requestFrame(at: wakeAt) }
    }

    func key(_ key: UInt32, view: View) -> Bool {
        session.dismiss(at: host.now)
    }
}
