#if canImport(Glibc)
    import Glibc
#endif

/// A system call that failed: its name and the errno it set. The one place
/// a failed call's text is formatted (`read: Bad file descriptor`).
///
/// A plain value (a static name and a number): making, throwing and
/// catching one allocates nothing.
package struct Errno: Error, Equatable, CustomStringConvertible {
    /// The call, as its manual page names it (`read`, `waitpid`).
    package let call: StaticString
    /// The errno it set.
    package let code: Int32

    package init(call: StaticString, code: Int32) {
        self.call = call
        self.code = code
    }

    /// The name and strerror's text.
    package var description: String { "\(call): \(errnoText(code))" }

    /// True for EAGAIN (EWOULDBLOCK): a non-blocking descriptor had nothing
    /// to give, or no room; not a failure of the descriptor.
    package var wouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }

    package static func == (a: Errno, b: Errno) -> Bool {
        a.code == b.code && a.call.description == b.call.description
    }
}

/// strerror's text for an errno value.
package func errnoText(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// The one EINTR retry: calls `body` (one system call that returns -1 and
/// sets errno when it fails) again for as long as it fails with EINTR, so
/// a signal the host catches never reads as a failure.
///
/// `body` is called anew each time: a call that waits with a timeout
/// computes it inside `body`, from its deadline, and so keeps the deadline
/// however many signals come. Allocates nothing.
/// - Parameter call: the call's name, for the error.
/// - Returns: what `body` returned when it did not fail.
/// - Throws: the call and its errno when it failed otherwise.
@inline(__always)
func retryingOnInterrupt<Value: FixedWidthInteger & SignedInteger>(
    _ call: StaticString, _ body: () -> Value
) throws(Errno) -> Value {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = errno
        if code != EINTR { throw Errno(call: call, code: code) }
    }
}
