import PresenterABI

/// The host's services for one presenter instance: logging, errors, the
/// clock, frames, options and the base presenter ("super" calls).
///
/// Valid from ``Presenter/init(host:)`` until the instance is freed; call it
/// only from inside a hook, on the thread that called the hook.
public struct Host {
    /// The host's table of services.
    let table: UnsafePointer<presenter_host>
    /// The host's handle for this instance.
    let context: OpaquePointer

    init(table: UnsafePointer<presenter_host>, context: OpaquePointer) {
        self.table = table
        self.context = context
    }

    /// Log levels, `PRESENTER_LOG_*`; the host shows them with `--verbose`.
    public enum LogLevel: Int32, Sendable {
        /// Details for whoever debugs the presenter.
        case debug = 0
        /// Normal events.
        case info = 1
        /// Something odd that the presenter worked around (a malformed option).
        case warning = 2
        /// Something failed.
        case error = 3
    }

    /// Writes `message` to the host's log (shown with `--verbose`). Plugins
    /// never write to stdout or stderr themselves.
    public func log(_ message: String, level: LogLevel = .info) {
        message.withCString { table.pointee.log(context, level.rawValue, $0) }
    }

    /// Sets the message that goes with the failing status the current hook
    /// returns. The SDK calls it for errors thrown from hooks; call it yourself
    /// only when you return a failure some other way.
    public func setError(_ message: String) {
        message.withCString { table.pointee.set_error(context, $0) }
    }

    /// The host's monotonic clock, in nanoseconds (the clock of frames).
    public var now: UInt64 { table.pointee.now_ns(context) }

    /// Asks for a render at (or soon after) `time` on the clock of ``now``; a
    /// time in the past means "as soon as possible". One-shot: ask again from
    /// render to keep animating. The host renders after show, hide, progress
    /// and key anyway.
    public func requestFrame(at time: UInt64) {
        table.pointee.request_frame(context, time)
    }

    /// The value of a configuration option for this presenter (such as
    /// "min-show-ms"), or `nil` when unset.
    public func option(_ key: String) -> String? {
        guard let value = key.withCString({ table.pointee.option(context, $0) }) else { return nil }
        return String(cString: value)
    }

    /// A non-negative integer option such as "grace-ms": `defaultValue` when
    /// unset; when malformed, `defaultValue` and a warning in the log.
    public func integerOption(_ key: String, default defaultValue: Int) -> Int {
        guard let text = option(key) else { return defaultValue }
        guard let value = Int(text), value >= 0 else {
            log("option \(key)=\"\(text)\" is not a non-negative integer; using \(defaultValue)", level: .warning)
            return defaultValue
        }
        return value
    }

    /// Calls the base presenter's show on the base's instance: the "super"
    /// call. Does nothing when there is no base or it has no show.
    /// - Throws: ``PresenterError`` with the base's status (its message is already with the host).
    public func baseShow(view: View, message: String, interactor: InteractorInfo) throws {
        let status = message.withCString { text in
            interactor.withUnsafeCStruct { table.pointee.base_show(context, view.handle, text, $0) }
        }
        try PresenterError.check(status)
    }

    /// Calls the base presenter's hide; see ``baseShow(view:message:interactor:)``.
    public func baseHide(view: View, message: String?, interactor: InteractorInfo, failure: FailureInfo?) throws {
        let status = withOptionalCString(message) { text in
            interactor.withUnsafeCStruct { cInteractor in
                withOptionalCStruct(failure) { table.pointee.base_hide(context, view.handle, text, cInteractor, $0) }
            }
        }
        try PresenterError.check(status)
    }

    /// Calls the base presenter's progress; see ``baseShow(view:message:interactor:)``.
    public func baseProgress(view: View, interactor: InteractorInfo) throws {
        let status = interactor.withUnsafeCStruct { table.pointee.base_progress(context, view.handle, $0) }
        try PresenterError.check(status)
    }

    /// Calls the base presenter's render.
    public func baseRender(view: View, now: UInt64) {
        table.pointee.base_render(context, view.handle, now)
    }

    /// Calls the base presenter's key; `true` when the base used the key.
    public func baseKey(_ key: UInt32, view: View) -> Bool {
        table.pointee.base_key(context, view.handle, key) != 0
    }
}

/// Runs `body` with `string` as a C string, or with NULL for `nil`.
func withOptionalCString<R>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> R) -> R {
    guard let string else { return body(nil) }
    return string.withCString(body)
}

/// Runs `body` with `failure` as a C struct, or with NULL for `nil`.
func withOptionalCStruct<R>(_ failure: FailureInfo?, _ body: (UnsafePointer<presenter_failure>?) -> R) -> R {
    guard let failure else { return body(nil) }
    return failure.withUnsafeCStruct(body)
}
