import Dispatch
import Glibc
import Synchronization
import SystemShims  // `struct sigaction`: clang gives its members to the first module whose header has <signal.h>

/// Calls handlers (on a global dispatch queue) after each SIGWINCH, and
/// after each SIGCONT: a process continued after a stop (Ctrl-Z, then `fg`
/// or `bg`) may find the window resized meanwhile and itself in the
/// foreground again, so it must re-read the size and redraw even a view
/// that does not animate. The default action of SIGCONT (continuing) does
/// not depend on a handler.
///
/// The signal handler only writes a byte to a pipe; a dispatch read source
/// on the pipe calls the handlers. Not a dispatch signal source: on Linux
/// libdispatch re-raises the signal at the thread that made the first such
/// source, where it can stay pending unseen (the test suite caught it).
/// Installed once per process, on first use, and left in place.
package enum ResizeSignal {
    private struct State {
        var handlers: [UInt64: @Sendable () -> Void] = [:]
        var lastToken: UInt64 = 0
        /// The pipe's reader, kept for the life of the process.
        var source: DispatchSourceRead?
    }
    private static let state = LockedValue(State())

    /// Starts calling `handler` after each SIGWINCH or SIGCONT; returns a
    /// token for ``stopWatching(_:)``, or `nil` when no pipe could be made.
    package static func watch(_ handler: @escaping @Sendable () -> Void) -> UInt64? {
        state.withLock { state in
            if state.source == nil {
                guard let source = install() else { return nil }
                state.source = source
            }
            state.lastToken += 1
            state.handlers[state.lastToken] = handler
            return state.lastToken
        }
    }

    /// Installs the handler without a watcher: ``SignalTrap`` needs
    /// ``continuations`` counted from its start. False when no pipe could
    /// be made.
    @discardableResult
    package static func countContinuations() -> Bool {
        state.withLock { state in
            if state.source == nil { state.source = install() }
            // The counters made now, not first in a handler.
            _ = (continuations, continuationsInStopHandler)
            return state.source != nil
        }
    }

    /// How many SIGCONTs reached the process since the handler was
    /// installed: ``SignalTrap`` tells by it whether one came after a
    /// SIGTSTP it handles (then the host must not stop).
    package static var continuations: UInt64 { continuationCount.load(ordering: .acquiring) }

    /// How many of those interrupted a handler of SIGTSTP (the kernel can
    /// deliver one on top of it before its first instruction, which then
    /// reads a count that already has it).
    package static var continuationsInStopHandler: UInt64 {
        continuationsInStopHandlerCount.load(ordering: .acquiring)
    }

    /// Stops calling the handler `token` stands for.
    package static func stopWatching(_ token: UInt64) {
        state.withLock { $0.handlers[token] = nil }
    }

    private static func install() -> DispatchSourceRead? {
        guard let pipe = try? FileDescriptor.pipe(nonBlocking: true) else { return nil }
        resizePipeWriteFD.store(pipe.writeEnd.rawValue, ordering: .releasing)
        let reader = DispatchSource.makeReadSource(fileDescriptor: pipe.readEnd.rawValue, queue: .global())
        reader.setEventHandler {
            var buffer = [UInt8](repeating: 0, count: 64)
            while ((try? pipe.readEnd.read(into: &buffer)) ?? 0) > 0 {}
            for handler in state.withLock({ Array($0.handlers.values) }) { handler() }
        }
        reader.resume()

        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { signal, _, context in
            // Counted first: SignalTrap's SIGTSTP handler may be reading it.
            // One that interrupted that handler (SIGTSTP blocked in the
            // interrupted context: the handler's own mask), even before its
            // first instruction, came after the SIGTSTP was taken.
            if signal == SIGCONT {
                continuationCount.add(1, ordering: .acquiringAndReleasing)
                if let context {
                    var mask = context.assumingMemoryBound(to: ucontext_t.self).pointee.uc_sigmask
                    if sigismember(&mask, SIGTSTP) == 1 {
                        continuationsInStopHandlerCount.add(1, ordering: .acquiringAndReleasing)
                    }
                }
            }
            // Async-signal-safe: one write(2), errno kept for the interrupted
            // code (not FileDescriptor.writeAll, whose array allocates).
            let saved = errno
            var byte: UInt8 = 1
            _ = write(resizePipeWriteFD.load(ordering: .acquiring), &byte, 1)
            errno = saved
        }
        action.sa_flags = SA_RESTART | SA_SIGINFO
        sigemptyset(&action.sa_mask)
        let installed = sigaction(SIGWINCH, &action, nil) == 0 && sigaction(SIGCONT, &action, nil) == 0
        return installed ? reader : nil
    }
}

/// The pipe the signal handler writes to (a global: a signal handler cannot
/// capture context). Atomic, because lock-free atomics are async-signal-safe.
private let resizePipeWriteFD = Atomic<Int32>(-1)

/// SIGCONTs so far (``ResizeSignal/continuations``).
private let continuationCount = Atomic<UInt64>(0)

/// ``ResizeSignal/continuationsInStopHandler``.
private let continuationsInStopHandlerCount = Atomic<UInt64>(0)
