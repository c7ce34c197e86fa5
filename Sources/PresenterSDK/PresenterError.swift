import PresenterABI

/// An error a hook throws. The SDK returns its ``code`` as the hook's status
/// and hands its ``message`` to the host; it never crosses the C boundary.
public struct PresenterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The status codes a hook may fail with, `PRESENTER_ERR_*`.
    public enum Code: Int32, Sendable {
        /// A generic failure.
        case failed = 1
        /// An argument or option was invalid.
        case invalid = 2
        /// A named thing (a view element, an option) does not exist.
        case notFound = 3
        /// Memory could not be allocated.
        case noMemory = 4
        /// Not supported by this host, view or presenter.
        case unsupported = 5
    }

    /// The status the hook returns.
    public var code: Code
    /// The message for the host, or `nil` to keep one already set (as after a
    /// failed base presenter call, whose base reported its own message).
    public var message: String?

    /// An error with a status code and a one-line message.
    public init(_ code: Code, _ message: String?) {
        self.code = code
        self.message = message
    }

    /// The message, or the status code when there is none.
    public var description: String { message ?? "presenter error \(code.rawValue)" }

    /// Throws for a status other than `PRESENTER_OK`. `message` is the text for
    /// a status the callee did not explain itself.
    static func check(_ status: presenter_status, orElse message: String? = nil) throws {
        guard status != PRESENTER_OK else { return }
        throw PresenterError(Code(rawValue: status) ?? .failed, message)
    }
}
