import PresenterABI

/// Why an interactor failed, as given to hide. A copy: keep it as long as you like.
public struct FailureInfo: Sendable, Hashable {
    /// The error code (for a command: its exit status).
    public var code: Int64
    /// The error domain, e.g. "validation", "http", "process".
    public var domain: String
    /// A human-readable description; may be empty: it is "" when hide's
    /// message already says it (a validation failure), so showing the
    /// message and this after it never says a thing twice.
    public var message: String

    /// A failure description, e.g. to pass a changed one to a base presenter.
    public init(code: Int64, domain: String, message: String) {
        self.code = code; self.domain = domain; self.message = message
    }

    /// Copies the host's struct.
    init(_ raw: UnsafePointer<presenter_failure>) {
        let c = raw.pointee
        code = c.code
        domain = c.domain.map { String(cString: $0) } ?? ""
        message = c.message.map { String(cString: $0) } ?? ""
    }

    /// Runs `body` with this failure as a C struct valid during the call.
    func withUnsafeCStruct<R>(_ body: (UnsafePointer<presenter_failure>) -> R) -> R {
        domain.withCString { domain in
            message.withCString { message in
                var c = presenter_failure(
                    struct_size: UInt32(MemoryLayout<presenter_failure>.size), reserved: 0,
                    code: code, domain: domain, message: message)
                return withUnsafePointer(to: &c, body)
            }
        }
    }
}
