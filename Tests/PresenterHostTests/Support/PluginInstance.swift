import Foundation
import PresenterABI

/// One instance of a presenter, created with a fake host, destroyed on deinit.
final class PluginInstance {
    let descriptor: presenter_descriptor
    let host: FakeHost
    private(set) var instance: UnsafeMutableRawPointer?
    /// ABI 1.4's time that show, hide and progress give from now on; `nil`
    /// gives none (started_ns 0, the rest unknown), as a host that measures none.
    var timing: (started: UInt64, done: Double, total: Double, rate: Double, eta: Double)?

    /// Calls create; throws the status and the message set with set_error when it fails.
    init(_ descriptor: UnsafePointer<presenter_descriptor>, host: FakeHost = FakeHost()) throws {
        self.descriptor = descriptor.pointee
        self.host = host
        let status = self.descriptor.create!(descriptor, host.table, host.context, &instance)
        guard status == PRESENTER_OK else { throw CreateFailure(status: status, messages: host.errors) }
    }

    deinit {
        descriptor.destroy?(instance)
    }

    struct CreateFailure: Error, Equatable {
        let status: presenter_status
        let messages: [String]
    }

    @discardableResult
    func show(
        _ view: FakeView, _ message: String, id: UInt64, type: String = "AddBookmarkInteractor",
        action: String = "add-bookmark", progress: Double = -1
    ) -> presenter_status {
        withInteractor(type, action, id, progress) { descriptor.show!(instance, view.handle, message, $0) }
    }

    @discardableResult
    func hide(
        _ view: FakeView, _ message: String?, id: UInt64, type: String = "AddBookmarkInteractor",
        action: String = "add-bookmark", failure: (code: Int64, domain: String, message: String)? = nil
    ) -> presenter_status {
        withInteractor(type, action, id, -1) { interactor in
            guard let failure else { return descriptor.hide!(instance, view.handle, message, interactor, nil) }
            return failure.domain.withCString { domain in
                failure.message.withCString { text in
                    var f = presenter_failure(
                        struct_size: UInt32(MemoryLayout<presenter_failure>.size),
                        reserved: 0, code: failure.code, domain: domain, message: text)
                    return descriptor.hide!(instance, view.handle, message, interactor, &f)
                }
            }
        }
    }

    @discardableResult
    func progress(
        _ view: FakeView, id: UInt64, _ fraction: Double, type: String = "AddBookmarkInteractor",
        action: String = "add-bookmark"
    ) -> presenter_status {
        withInteractor(type, action, id, fraction) { descriptor.progress!(instance, view.handle, $0) }
    }

    /// Clears the view and renders a frame at the host's current time.
    func render(_ view: FakeView) {
        view.clear()
        view.rendering = true
        descriptor.render!(instance, view.handle, host.now)
        view.rendering = false
    }

    func key(_ view: FakeView, _ key: UInt32) -> Int32 {
        descriptor.key!(instance, view.handle, key)
    }

    private func withInteractor(
        _ type: String, _ action: String, _ id: UInt64, _ progress: Double,
        _ body: (UnsafePointer<presenter_interactor>) -> presenter_status
    ) -> presenter_status {
        type.withCString { type in
            action.withCString { action in
                var interactor = presenter_interactor(
                    struct_size: UInt32(MemoryLayout<presenter_interactor>.size), reserved: 0,
                    type_name: type, action: action, id: id, progress: progress, message: nil,
                    started_ns: timing?.started ?? 0, done: timing?.done ?? -1, total: timing?.total ?? -1,
                    rate: timing?.rate ?? -1, eta_s: timing?.eta ?? -1)
                return body(&interactor)
            }
        }
    }
}
