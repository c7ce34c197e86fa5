import PresenterABI

/// The C functions every SDK descriptor points to. Each turns C arguments
/// into Swift values, calls the presenter, and turns thrown errors into a
/// status plus `set_error`; no Swift type or error crosses the boundary.
enum HookThunks {
    /// The instance pointer handed to the host: a retained box around the presenter.
    final class Instance {
        let presenter: any Presenter
        init(_ presenter: any Presenter) { self.presenter = presenter }

        static func from(_ raw: UnsafeMutableRawPointer?) -> Instance? {
            raw.map { Unmanaged<Instance>.fromOpaque($0).takeUnretainedValue() }
        }
    }

    static let create:
        @convention(c) (
            UnsafePointer<presenter_descriptor>?, UnsafePointer<presenter_host>?,
            OpaquePointer?, UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        ) -> presenter_status = {
            descriptor, table, context, instance in
            guard let table, let context, let instance else { return PRESENTER_ERR_INVALID }
            let host = Host(table: table, context: context)
            guard let descriptor, let type = PresenterExport.type(of: descriptor) else {
                host.setError("create: the descriptor was not made by PresenterExport.descriptor(at:of:)")
                return PRESENTER_ERR_INVALID
            }
            do {
                let presenter = try type.init(host: host)
                instance.pointee = Unmanaged.passRetained(Instance(presenter)).toOpaque()
                return PRESENTER_OK
            } catch {
                return report(error, to: host)
            }
        }

    static let destroy: @convention(c) (UnsafeMutableRawPointer?) -> Void = { instance in
        guard let instance else { return }
        Unmanaged<Instance>.fromOpaque(instance).release()
    }

    static let show:
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?,
            UnsafePointer<presenter_interactor>?
        ) -> presenter_status = {
            instance, view, message, interactor in
            call(instance, view, interactor, "show") { presenter, view, interactor in
                try presenter.show(
                    view: view, message: message.map { String(cString: $0) } ?? "", interactor: interactor)
            }
        }

    static let hide:
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?,
            UnsafePointer<presenter_interactor>?, UnsafePointer<presenter_failure>?
        ) -> presenter_status = {
            instance, view, message, interactor, failure in
            call(instance, view, interactor, "hide") { presenter, view, interactor in
                try presenter.hide(
                    view: view, message: message.map { String(cString: $0) }, interactor: interactor,
                    failure: failure.map(FailureInfo.init))
            }
        }

    static let progress:
        @convention(c) (
            UnsafeMutableRawPointer?, OpaquePointer?,
            UnsafePointer<presenter_interactor>?
        ) -> presenter_status = {
            instance, view, interactor in
            call(instance, view, interactor, "progress") { presenter, view, interactor in
                try presenter.progress(view: view, interactor: interactor)
            }
        }

    static let render: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UInt64) -> Void = {
        instance, view, now in
        guard let presenter = Instance.from(instance)?.presenter, let view else { return }
        presenter.render(view: View(table: presenter.host.table, handle: view), now: now)
    }

    static let key: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UInt32) -> Int32 = {
        instance, view, key in
        guard let presenter = Instance.from(instance)?.presenter, let view else { return 0 }
        return presenter.key(key, view: View(table: presenter.host.table, handle: view)) ? 1 : 0
    }

    /// The common part of show, hide and progress: checks the arguments, runs
    /// `body`, and maps what it throws to a status.
    private static func call(
        _ instance: UnsafeMutableRawPointer?, _ view: OpaquePointer?,
        _ interactor: UnsafePointer<presenter_interactor>?, _ hook: String,
        _ body: (any Presenter, View, InteractorInfo) throws -> Void
    ) -> presenter_status {
        guard let presenter = Instance.from(instance)?.presenter else { return PRESENTER_ERR_INVALID }
        guard let view, let interactor else {
            presenter.host.setError("\(hook): the host passed a NULL view or interactor")
            return PRESENTER_ERR_INVALID
        }
        do {
            try body(presenter, View(table: presenter.host.table, handle: view), InteractorInfo(interactor))
            return PRESENTER_OK
        } catch {
            return report(error, to: presenter.host)
        }
    }

    /// Hands `error` to the host and returns its status.
    private static func report(_ error: any Error, to host: Host) -> presenter_status {
        guard let error = error as? PresenterError else {
            host.setError(String(describing: error))
            return PRESENTER_ERR_FAILED
        }
        if let message = error.message { host.setError(message) }
        return error.code.rawValue
    }
}
