import PresenterSDK

/// The network activity indicator: a small spinner in the top-right cell of
/// the view, shown exactly while at least one interactor of any view is in
/// flight. It shows no messages, as the original "doesn't support messages".
final class NetActivityPresenter: Presenter {
    /// From netactivity.presenters, which is also the library's description.
    static let info = PresenterInfo.netactivity

    let host: Host
    private let counter = ActivityCounter.shared

    init(host: Host) {
        self.host = host
        counter.watch(ObjectIdentifier(self), host: host)
    }

    deinit {
        counter.unwatch(ObjectIdentifier(self))
    }

    func show(view: View, message: String, interactor: InteractorInfo) throws {
        counter.begin(interactor.id, owner: ObjectIdentifier(self))
    }

    func hide(view: View, message: String?, interactor: InteractorInfo, failure: FailureInfo?) throws {
        counter.end(interactor.id, owner: ObjectIdentifier(self))
    }

    func render(view: View, now: UInt64) {
        guard counter.count > 0 else { return }
        // Timed from the clock's origin so that every view's spinner turns together.
        let spinner = Spinner(unicode: view.flags.contains(.unicode))
        if let next = spinner.draw(
            on: view, col: view.size.cols - 1, row: 0, maxCols: 1, style: .cyan, since: 0, at: now)
        {
            host.requestFrame(at: next)
        }
    }
}
