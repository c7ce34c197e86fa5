import Dispatch
import Synchronization
import SystemShims  // `struct sigaction`: clang gives its members to the first module whose header has <signal.h>
#if canImport(Glibc)
    import Glibc
#endif

/// Turns signals into events on a dispatch queue, so that nothing but one
/// `write(2)` ever runs inside a signal handler: restoring the terminal,
/// forwarding signals and exiting all happen on the queue.
///
/// A `DispatchSource` signal source would do the same but hides `siginfo`,
/// and `run` needs `si_code` to tell a signal the terminal sent to the whole
/// foreground group (Ctrl-C, hangup: the command got it too) from one sent to
/// the host alone with kill(2) (which the host must forward). So the handler
/// writes `(signal, si_code)` into a pipe and a dispatch read source on that
/// pipe calls the event handler.
///
/// One trap may be active in a process at a time.
public final class SignalTrap {
    /// One signal as received.
    public struct Event: Equatable, Sendable {
        /// The signal number.
        public let signal: Int32
        /// True when the kernel sent it on behalf of the terminal (`SI_KERNEL`:
        /// Ctrl-C, Ctrl-\, hangup, window change), which delivers it to the
        /// whole foreground process group.
        public let fromTerminal: Bool
    }

    /// The signals every command that draws on the terminal traps (`run`,
    /// `drive`, `add-bookmark` and its script modes), defined once so that no
    /// command can miss one: those whose default action ends the process
    /// (SIGINT, SIGTERM, SIGHUP, and Ctrl-\'s SIGQUIT, which would otherwise
    /// leave echo off and the cursor hidden), which each command answers by
    /// giving the terminal back before it ends, and Ctrl-Z's SIGTSTP, which
    /// takes the view off before the stop. The commands that draw nothing
    /// (`bookmarks`, `--list`, `check`) trap none: the default action
    /// already ends them as a shell expects.
    public static let trapped: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP]

    private let signals: [Int32]
    private var previous: [Int32: sigaction] = [:]
    /// The pipe's write end: the signal handler's. Internal for a test.
    let writeEnd: FileDescriptor
    private let source: DispatchSourceRead
    /// Set by the first ``cancel()``: a second must not close descriptor
    /// numbers that may belong to someone else by then.
    private var cancelled = false
    private let queue: DispatchQueue
    private let drain: () -> Void
    /// Signalled by the source's cancel handler, which libdispatch calls
    /// once it has released the event handler (and what `handler` holds).
    private let released = DispatchSemaphore(value: 0)

    /// Catches `signals` (``trapped`` unless a test gives its own) and calls
    /// `handler` on `queue` for each one. Call it on the thread that should
    /// receive them (the main thread).
    /// - Throws: `pipe2` and its errno when the pipe cannot be made (the
    ///   descriptors ran out at start-up); nothing is caught then.
    package init(signals: [Int32] = SignalTrap.trapped, queue: DispatchQueue, handler: @escaping (Event) -> Void)
        throws(Errno)
    {
        let pipe = try FileDescriptor.pipe(nonBlocking: true)
        writeEnd = pipe.writeEnd
        self.signals = signals
        self.queue = queue
        drain = {
            var record = [UInt8](repeating: 0, count: 8)
            while (try? pipe.readEnd.read(into: &record)) == 8 {
                let (signal, code) = record.withUnsafeBytes {
                    ($0.load(as: Int32.self), $0.load(fromByteOffset: 4, as: Int32.self))
                }
                handler(Event(signal: signal, fromTerminal: code == signalCodeKernel))
            }
        }
        source = DispatchSource.makeReadSource(fileDescriptor: pipe.readEnd.rawValue, queue: queue)
        source.setEventHandler(handler: drain)
        // libdispatch may still watch the descriptor until the source's
        // cancellation is done: close it only then, or a reused number can
        // send its manager thread into freed memory. The write end too: a
        // pipe whose last writer goes hangs up, and a hang-up libdispatch
        // sees on a source being cancelled races its own manager thread
        // (OutputPump says how); closed before the read end, a signal that
        // came late finds no pipe (EBADF), not one without a reader
        // (SIGPIPE).
        source.setCancelHandler { [released] in
            try? pipe.writeEnd.close()
            try? pipe.readEnd.close()
            released.signal()
        }
        source.resume()

        signalPipeWriteFD.store(writeEnd.rawValue, ordering: .releasing)
        // Initialised here, not first in the handler (a once-token takes a lock).
        TerminalFlushRepair.prepare()
        // A parent may have started us with these signals blocked (a thread
        // of a dispatch pool blocks them all, and its children inherit the
        // mask); the calling thread takes them, dispatch threads never do.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in signals { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = recordSignal
            action.sa_flags = SA_SIGINFO | SA_RESTART
            sigemptyset(&action.sa_mask)
            var old = sigaction()
            sigaction(signal, &action, &old)
            previous[signal] = old
        }
    }

    /// Handles, on the queue and before returning, every signal received so
    /// far: the read source may not have run yet for one that just came.
    /// Call it from any thread but the queue's.
    public func flush() {
        queue.sync(execute: drain)
    }

    /// Puts the previous dispositions back and stops the events; returns
    /// once the handler is released. What the handler holds (a `run`'s
    /// runtime) must not outlive the caller's use of it on a dispatch
    /// thread: a process that returns from `main` would exit while that
    /// thread is still freeing it. Call it from any thread but the queue's.
    public func cancel() {
        guard !cancelled else { return }
        cancelled = true
        for signal in signals {
            if var old = previous[signal] { sigaction(signal, &old, nil) }
        }
        previous = [:]
        signalPipeWriteFD.store(-1, ordering: .releasing)
        source.cancel()  // its cancel handler closes the pipe
        released.wait()
    }
}

/// `SI_KERNEL` (not imported: it is an enum constant in glibc's headers).
private let signalCodeKernel: Int32 = 0x80

/// Where the handler writes; -1 when no trap is active. An atomic, because a
/// lock is not async-signal-safe and lock-free atomics are.
private let signalPipeWriteFD = Atomic<Int32>(-1)

/// The signal handler: one write of 8 bytes (and the terminal's last bytes
/// again, see ``TerminalFlushRepair``), errno preserved. Async-signal-safe
/// (so a raw write(2), not FileDescriptor.writeAll, whose array allocates).
private let recordSignal: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
    signal, info, _ in
    let savedErrno = errno
    let code = info?.pointee.si_code ?? 0
    // First: once the record is in the pipe, the queue may act on it (stop
    // the process on Ctrl-Z) before this thread writes anything else.
    if code == signalCodeKernel { TerminalFlushRepair.signalArrived(signal) }
    var record: (Int32, Int32) = (signal, code)
    _ = withUnsafeBytes(of: &record) { write(signalPipeWriteFD.load(ordering: .acquiring), $0.baseAddress, $0.count) }
    errno = savedErrno
}
