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
/// outcome may show; none by default), "elapsed-after-ms" (default 3000: once
/// work has run this long, from a host of ABI 1.4 or later, a dim line under
/// the text says its elapsed time, and with determinate progress the ETA and
/// rate, `12s · ETA 17s · 2.5/s`, dropping the rate then the ETA where the
/// view is narrow; the outcome line that stays says no time, so that it is
/// the same line however long the work ran).
final class MBHudPresenter: Presenter {
    /// From mbhud.presenters, which is also the library's description.
    static let info = PresenterInfo.mbhud

    let host: Host
    private var session: HUDSession
    /// The earliest frame asked for while the elapsed time was on the
    /// screen (or due), not yet served: asks are one-shot, and one the host
    /// has not served keeps it from seeing the HUD done.
    private var timeFrame: UInt64?

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
                    ? HUDSession.longest : duration("outcome-limit-ms", 0),
                elapsedAfter: duration("elapsed-after-ms", 3000)))
    }

    func show(view: View, message: String, interactor: InteractorInfo) throws {
        let now = host.now
        session.show(
            id: interactor.id, message: message, progress: interactor.progress, timing: timing(interactor, at: now),
            at: now)
    }

    func hide(view: View, message: String?, interactor: InteractorInfo, failure: FailureInfo?) throws {
        session.hide(
            id: interactor.id, message: message, failureText: failure?.message,
            holdUntilKey: view.flags.contains(.interactive), at: host.now)
    }

    func progress(view: View, interactor: InteractorInfo) throws {
        let now = host.now
        session.progress(
            id: interactor.id, progress: interactor.progress, message: interactor.message,
            timing: timing(interactor, at: now), at: now)
    }

    /// What a 1.4 host measured of the interactor's time; `nil` from older hosts.
    private func timing(_ interactor: InteractorInfo, at now: UInt64) -> HUDSession.Timing? {
        interactor.startedAt.map {
            HUDSession.Timing(
                startedAt: $0, rate: interactor.rate, eta: interactor.eta, counted: interactor.total != nil,
                toldAt: now)
        }
    }

    func render(view: View, now: UInt64) {
        // The view's last render: the outcome stays, as one line.
        if view.flags.contains(.final) {
            session.finalOutcome?.drawLine(on: view)
            return
        }
        if let asked = timeFrame, asked <= now { timeFrame = nil }
        let frame = session.frame(at: now)
        var wakeAt = frame.wakeAt
        // The spinner turns by itself (draw_cycle); where the host's table
        // lacks the service it asks for its next frame.
        if let content = frame.content, let next = content.draw(on: view, at: now) {
            wakeAt = min(wakeAt ?? next, next)
        }
        if let wakeAt {
            host.requestFrame(at: wakeAt)
            if frame.content?.timing != nil { timeFrame = min(timeFrame ?? wakeAt, wakeAt) }
        } else if frame.content == nil, timeFrame != nil {
            // Done while a frame for the elapsed time (up to the threshold
            // ahead) is still asked for: the host would wait for it before
            // it sees the HUD done. A frame now serves it, and asks no other.
            host.requestFrame(at: now)
            timeFrame = now
        }
    }

    func key(_ key: UInt32, view: View) -> Bool {
        session.dismiss(at: host.now)
    }
}
