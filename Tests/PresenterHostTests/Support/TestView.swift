import Foundation
import PresenterHost

/// A view with fixed messages and presenter.
// Safe: `keys` is appended on the presenter thread alone (ScreenletView's rule), read by a test after `runtime.sync`.
final class TestView: ScreenletView, @unchecked Sendable {
    let presenter: String
    private(set) var keys: [UInt32] = []
    init(presenter: String, messages: [String: ProgressMessages] = [:], elements: [String: ViewElement] = [:]) {
        self.presenter = presenter
        super.init(progressMessages: messages, elements: elements)
    }
    override func createProgressPresenter() -> String { presenter }
    override func handleKey(_ code: UInt32) -> Bool { keys.append(code); return true }
}
