import Dispatch
import HostSystem
import Synchronization

/// Reads keys from a terminal in raw mode on a thread of its own and hands
/// them, decoded (``KeyDecoder``), to a handler, in the order typed.
///
/// A lone Escape is the Escape key when nothing follows it within
/// ``escapeWait`` (the bytes of one sequence arrive together; a person
/// cannot type the next key that fast); the start of a sequence that does
/// not end within it is dropped. The end of the input (the terminal
/// hung up) is handed over as `nil`, once. ``stop()`` ends the thread
/// through a pipe the reader also polls, so it never waits on a key that
/// will not come.
package final class TerminalInput: Sendable {
    /// How long a lone Escape waits for the rest of a sequence, in ms (the
    /// bytes of one key may come split over a slow link).
    package static let escapeWait: Int32 = 50

    private let fd: FileDescriptor
    private let handler: @Sendable (TerminalKey?) -> Void
    private let wake: (readEnd: FileDescriptor, writeEnd: FileDescriptor)?
    private let done = DispatchSemaphore(value: 0)
    /// The reader runs, until ``stop()``.
    private let reading: Atomic<Bool>

    /// Starts reading `fd` and calling `handler` (on the reader's thread).
    package init(fd: FileDescriptor = .standardInput, handler: @escaping @Sendable (TerminalKey?) -> Void) {
        self.fd = fd
        self.handler = handler
        wake = try? FileDescriptor.pipe()
        reading = Atomic(wake != nil)
        guard wake != nil else { return }
        DetachedThread.start(name: "presenter-host.input") { [self] in
            readKeys()
            done.signal()
        }
    }

    /// Stops reading and waits for the reader to end (never from the handler).
    package func stop() {
        guard let wake, reading.exchange(false, ordering: .acquiringAndReleasing) else { return }
        try? wake.writeEnd.writeAll([0])
        done.wait()
        try? wake.readEnd.close()
        try? wake.writeEnd.close()
    }

    private func readKeys() {
        guard let wake else { return }
        var decoder = KeyDecoder()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            guard
                let ready = try? FileDescriptor.wait(
                    for: .input, on: [fd, wake.readEnd],
                    milliseconds: { decoder.hasPendingEscape ? Self.escapeWait : -1 })
            else { return handler(nil) }
            if !ready[1].isEmpty { return }
            if ready[0].isEmpty {
                if let escape = decoder.flushPending() { handler(escape) }
                continue
            }
            let count: Int
            do throws(Errno) {
                count = try fd.read(into: &buffer)
            } catch {
                if error.wouldBlock { continue }
                return handler(nil)
            }
            guard count > 0 else { return handler(nil) }
            for key in decoder.decode(Array(buffer[0..<count])) { handler(key) }
        }
    }
}
