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
///
/// Ctrl-Z (SIGTSTP) is handled, so the host can take its view off before it
/// stops: ``stopForSuspend()`` then stops it. A SIGCONT that comes between
/// the handler and that stop must not be lost (`kill -TSTP` then `kill
/// -CONT` at once, as supervisors do, left `run` stopped for good in 7 or
/// 8 of 10 tries): the kernel forgets a SIGCONT that continues nothing. So
/// the handler's first act keeps the stop pending in the kernel, where a
/// SIGCONT clears it as it clears any pending stop: it sends SIGTSTP again
/// to a thread of the trap's own that blocks every signal (``Stopper``);
/// ``stopForSuspend()`` has that thread take it and stop the process only
/// if it is still pending.
package final class SignalTrap {
    /// One signal as received.
    package struct Event: Equatable, Sendable {
        /// The signal number.
        package let signal: Int32
        /// True when the kernel sent it on behalf of the terminal (`SI_KERNEL`:
        /// Ctrl-C, Ctrl-\, hangup, window change), which delivers it to the
        /// whole foreground process group.
        package let fromTerminal: Bool
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
    package static let trapped: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP]

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
    /// Holds a Ctrl-Z's stop pending until ``stopForSuspend()``; nil when
    /// SIGTSTP is not trapped.
    private let stopper: Stopper?

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

        // SIGCONTs counted from now on, before the first SIGTSTP can come.
        stopper = signals.contains(SIGTSTP) && ResizeSignal.countContinuations() ? Stopper() : nil
        if let stopper { activeStopper.withLock { $0 = stopper } }
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

    /// For the handler of a SIGTSTP event, once the view is off: stops the
    /// process (SIGSTOP), unless a SIGCONT came since the SIGTSTP was sent,
    /// and returns once it is continued. Not for a Ctrl-Z that came as a
    /// key (raw mode): that is ``ProcessSignals/stopUntilContinued()``.
    /// (A static function, for the handler closure, which cannot hold its
    /// trap: the active trap's stopper.)
    package static func stopForSuspend() {
        guard let stopper = activeStopper.withLock({ $0 }) else { return ProcessSignals.stopUntilContinued() }
        stopper.stopIfPending()
    }

    /// Handles, on the queue and before returning, every signal received so
    /// far: the read source may not have run yet for one that just came.
    /// Call it from any thread but the queue's.
    package func flush() {
        queue.sync(execute: drain)
    }

    /// Puts the previous dispositions back and stops the events; returns
    /// once the handler is released. What the handler holds (a `run`'s
    /// runtime) must not outlive the caller's use of it on a dispatch
    /// thread: a process that returns from `main` would exit while that
    /// thread is still freeing it. Call it from any thread but the queue's.
    package func cancel() {
        guard !cancelled else { return }
        cancelled = true
        for signal in signals {
            if var old = previous[signal] { sigaction(signal, &old, nil) }
        }
        previous = [:]
        signalPipeWriteFD.store(-1, ordering: .releasing)
        if let stopper {
            activeStopper.withLock { if $0 === stopper { $0 = nil } }
            stopper.end()
        }
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
    // First of all for Ctrl-Z, before any system call (a SIGCONT sent to
    // this thread meanwhile is handled at the first one, and counted): the
    // SIGCONTs so far, then the stop pending again, where a SIGCONT from now
    // on clears it (SignalTrap.Stopper).
    if signal == SIGTSTP {
        continuationsAtStop.store(ResizeSignal.continuations, ordering: .releasing)
        let thread = stopperThreadID.load(ordering: .acquiring)
        if thread > 0 { _ = ph_signal_thread(thread, SIGTSTP) }
    }
    let savedErrno = errno
    let code = info?.pointee.si_code ?? 0
    // First: once the record is in the pipe, the queue may act on it (stop
    // the process on Ctrl-Z) before this thread writes anything else.
    if code == signalCodeKernel { TerminalFlushRepair.signalArrived(signal) }
    var record: (Int32, Int32) = (signal, code)
    _ = withUnsafeBytes(of: &record) { write(signalPipeWriteFD.load(ordering: .acquiring), $0.baseAddress, $0.count) }
    errno = savedErrno
}

/// ``ResizeSignal/continuations`` when the last SIGTSTP was handled.
private let continuationsAtStop = Atomic<UInt64>(0)

/// The stopper's thread id; 0 when none is running.
private let stopperThreadID = Atomic<Int32>(0)

/// The active trap's stopper, for ``SignalTrap/stopForSuspend()``.
private let activeStopper = LockedValue<SignalTrap.Stopper?>(nil)

extension SignalTrap {
    /// A thread that blocks every signal, so that the SIGTSTP the handler
    /// sends it stays pending in the kernel until ``stopIfPending()``: a
    /// SIGCONT that comes meanwhile discards it (the kernel discards every
    /// pending stop signal when SIGCONT is sent), and then the process does
    /// not stop. A SIGCONT that came between the kernel's delivery of the
    /// SIGTSTP and the handler's resend finds nothing to discard; it is
    /// told by the count of SIGCONTs (``ResizeSignal/continuations``), which
    /// the handler reads first, or, delivered on top of the handler before
    /// that read, by the count of those that interrupted a SIGTSTP handler
    /// (``ResizeSignal/continuationsInStopHandler``). Left: a SIGCONT
    /// handled on another thread in the instant between the delivery and
    /// the read (seen once in 300 tries on a machine loaded far past its
    /// cores; none in 300 at a load of 4 on 2); one generated between that
    /// read and the resend, which the resent stop signal discards before
    /// its handler counts it (the kernel drops pending SIGCONTs when a stop
    /// signal is generated); and, in an orphaned process group only, one
    /// between the last check and SIGSTOP. Closing them needs SIGTSTP
    /// blocked in every thread and watched without being taken.
    final class Stopper: Sendable {
        private struct State {
            var requests = 0
            var served = 0
            var ending = false
            var running = false
        }

        private let state = ConditionLock(State())

        init() {
            DetachedThread.start(name: "stopper") { [state] in Self.run(state) }
            // Started at once; until then (and if it never were) the handler
            // sends nothing and a stop is a plain SIGSTOP.
            state.withLock(waitingUntil: { $0.running || $0.ending }) { _, _ in }
        }

        /// Takes the pending SIGTSTP, if a SIGCONT did not discard it, and
        /// stops the process; returns once it is continued.
        func stopIfPending() {
            let ticket: Int? = state.withLock { state in
                guard state.running else {
                    ProcessSignals.stopUntilContinued()
                    return nil
                }
                state.requests += 1
                return state.requests
            }
            guard let ticket else { return }
            state.broadcast()
            state.withLock(waitingUntil: { $0.served >= ticket || !$0.running }) { _, _ in }
        }

        /// Ends the thread (a SIGTSTP it holds goes with it).
        func end() {
            stopperThreadID.store(0, ordering: .releasing)
            state.withLock { $0.ending = true }
            state.broadcast()
        }

        /// On the stopper's thread, SIGTSTP blocked: stops the process if
        /// the SIGTSTP the handler resent is still pending and no SIGCONT
        /// was counted since the handler ran (one that came before its
        /// resend found nothing to clear). The stop is the kernel's own
        /// (SIGTSTP's default action, let through for a moment), which stops
        /// only if the signal is still pending when taken, a SIGCONT's
        /// clearing and the stop being one step under the kernel's lock. In
        /// an orphaned process group, where the kernel discards SIGTSTP's
        /// stop, SIGSTOP stops it as before (a SIGCONT in the instant
        /// between the check and SIGSTOP would be lost there).
        private static func stopIfStillPending(_ tstp: sigset_t, nestedSeen: UInt64) {
            var tstp = tstp
            var now = timespec()
            let continued = {
                ResizeSignal.continuations != continuationsAtStop.load(ordering: .acquiring)
                    || ResizeSignal.continuationsInStopHandler != nestedSeen
            }
            if continued() || isOrphaned {
                // Taken in any case.
                let pending = sigtimedwait(&tstp, nil, &now) == SIGTSTP
                if pending && !continued() { ProcessSignals.stopUntilContinued() }
                return
            }
            var byDefault = sigaction()
            byDefault.__sigaction_handler.sa_handler = SIG_DFL
            sigemptyset(&byDefault.sa_mask)
            var trapping = sigaction()
            sigaction(SIGTSTP, &byDefault, &trapping)
            pthread_sigmask(SIG_UNBLOCK, &tstp, nil)  // the stop, if still pending
            pthread_sigmask(SIG_BLOCK, &tstp, nil)
            sigaction(SIGTSTP, &trapping, nil)
        }

        /// Whether the host's process group is orphaned (no member's parent
        /// is in another group of the same session): then the kernel
        /// discards the stop of SIGTSTP's default action. The host's own
        /// parent decides it in practice: its other members are its
        /// children, whose parent is in the group.
        private static var isOrphaned: Bool {
            let parent = getppid()
            return !(getpgid(parent) != getpgrp() && getsid(parent) == getsid(0))
        }

        private static func run(_ state: ConditionLock<State>) {
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_BLOCK, &all, nil)
            stopperThreadID.store(ph_gettid(), ordering: .releasing)
            // The SIGCONTs that interrupted a SIGTSTP handler before this stop's.
            var nestedSeen = ResizeSignal.continuationsInStopHandler
            _ = continuationsAtStop.load(ordering: .acquiring)  // made now, not first in a handler
            state.withLock { $0.running = !$0.ending }
            state.broadcast()
            while state.withLock(waitingUntil: { $0.ending || $0.served < $0.requests }, { state, _ in !state.ending })
            {
                var tstp = sigset_t()
                sigemptyset(&tstp)
                sigaddset(&tstp, SIGTSTP)
                let nested = ResizeSignal.continuationsInStopHandler
                Self.stopIfStillPending(tstp, nestedSeen: nestedSeen)
                nestedSeen = nested
                state.withLock { $0.served += 1 }
                state.broadcast()
            }
            state.withLock { $0.running = false }
            state.broadcast()
        }
    }
}
