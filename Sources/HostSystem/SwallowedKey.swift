import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// The last Ctrl-C, Ctrl-\ or Ctrl-Z the terminal turned into a signal, so
/// that its echo can be written when the host gives echo back.
///
/// With echo on, the terminal echoes such a key where the cursor is (`^Z`,
/// with `ECHOCTL`) before the shell writes its `[1]+ Stopped` line on the
/// next one. While the host has echo off under its region nothing is
/// echoed, and the shell's line came after an empty one. The key is
/// recorded in signal context (``TerminalFlushRepair/signalArrived(_:)``,
/// for a signal the terminal sent), and the backend that turned echo off
/// writes its echo once the region is gone and echo is on again, where the
/// cursor is then: where the terminal would have written it.
package enum SwallowedKey {
    /// The keys so far, as ``recording(_:after:)`` counts them: one atomic
    /// word, written in signal context.
    private static let record = Atomic<UInt64>(0)

    /// Makes the state exist before a signal handler can read it (Swift
    /// initialises a static on first use, under a lock a handler must not take).
    static func prepare() {
        _ = record.load(ordering: .relaxed)
    }

    /// In signal context: the terminal sent `signal` for a key. Lock-free.
    static func signalArrived(_ signal: Int32) {
        guard signal == SIGINT || signal == SIGQUIT || signal == SIGTSTP else { return }
        var current = record.load(ordering: .relaxed)
        while true {
            let (done, found) = record.compareExchange(
                expected: current, desired: recording(signal, after: current), ordering: .acquiringAndReleasing)
            if done { return }
            current = found
        }
    }

    /// The keys so far: how many came (``count(in:)``), and the last one's
    /// signal. Noted when echo is turned off, so that only a key that came
    /// after is echoed: one before was the terminal's to echo, and it did,
    /// or did not as its settings said.
    package static var keys: UInt64 { record.load(ordering: .acquiring) }

    /// `keys` with one more key, for `signal`: the count in all but the low
    /// byte, the last signal in the low byte.
    package static func recording(_ signal: Int32, after keys: UInt64) -> UInt64 {
        ((keys >> 8) + 1) << 8 | UInt64(UInt8(truncatingIfNeeded: signal))
    }

    /// How many keys `keys` counts.
    package static func count(in keys: UInt64) -> UInt64 { keys >> 8 }

    /// The echo the terminal would have written for the last key of `keys`
    /// if it came after `since` (an earlier ``keys``), with `settings`: `^C`,
    /// `^\`, `^Z` (with `ECHOCTL`, the default, a control character is
    /// echoed as `^` and a letter; without it nothing is written). Empty
    /// when none came.
    package static func echo(of keys: UInt64, since: UInt64, with settings: termios) -> [UInt8] {
        guard count(in: keys) > count(in: since), settings.c_lflag & tcflag_t(ECHOCTL) != 0 else { return [] }
        let signal = Int32(keys & 0xFF)
        let index = signal == SIGINT ? VINTR : signal == SIGQUIT ? VQUIT : VSUSP
        let key = withUnsafeBytes(of: settings.c_cc) { $0[Int(index)] }
        switch key {
        case 0x7F: return Array("^?".utf8)
        // 0 is _POSIX_VDISABLE on Linux: no key.
        case 1..<0x20: return [UInt8(ascii: "^"), key ^ 0x40]
        default: return []
        }
    }
}
