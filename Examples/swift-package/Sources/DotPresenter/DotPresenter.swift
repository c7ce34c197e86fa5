// The smallest presenter of docs/writing-a-presenter.md, word for word.
import PresenterABI
import PresenterSDK

/// A dot in the top-left cell while something runs.
final class DotPresenter: Presenter {
    static let info = PresenterInfo.dot  // from dot.presenters

    let host: Host
    private var running: Set<UInt64> = []

    init(host: Host) { self.host = host }

    func show(view: View, message: String, interactor: InteractorInfo) throws {
        running.insert(interactor.id)
    }

    func hide(view: View, message: String?, interactor: InteractorInfo, failure: FailureInfo?) throws {
        running.remove(interactor.id)
    }

    func render(view: View, now: UInt64) {
        if !running.isEmpty { view.drawText("•", col: 0, row: 0) }
    }
}

/// The one symbol the host looks up.
@c public func presenter_plugin_descriptor(_ index: UInt32) -> UnsafePointer<presenter_descriptor>? {
    PresenterExport.descriptor(at: index, of: [DotPresenter.self])
}
