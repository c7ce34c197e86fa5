import Glibc
import HostSystem

/// The one setting of the terminal the host changes, echo, and what the
/// settings say about the command: the terminal is the command's.
///
/// - Echo is turned off while the region is shown (a typed key would be
///   echoed into the region and move the cursor its relative moves count
///   on), and turned back on when the region goes only if the host turned
///   it off and the terminal's local modes are still exactly those the host
///   set. Nothing else is set or restored: a command's `stty -ixon` stays,
///   and so does a mode it left (`stty raw -echo`, or echo it turned off).
/// - The command asks the user something when it has the terminal in a
///   mode for reading a password or a key: echo off or non-canonical input,
///   set by the command, not by the host nor before the command started
///   (the settings are read at ``init(fd:silences:)``, which the backend
///   runs before the command starts). The region then steps aside.
///
/// Echo off set by the host could not be told from the same setting made by
/// the command, and the host's comes first (its first frame is a few ms
/// after the command starts). So with echo the host turns on `ECHONL`
/// (echo a typed newline even with echo off): password readers turn it off
/// with echo (OpenSSH's and sudo's `readpassphrase`, bash's `read -s`), and
/// their change is seen. Its cost: a newline typed while the region is
/// shown moves the (hidden) cursor down a row, which every frame undoes
/// (it starts by going back to the anchor: ``TerminalFrameEncoder``). A
/// reader that clears `ECHO` alone (Python's `getpass`) is not seen; one
/// that changes another local mode is (`getpass(3)` clears `ISIG`, any key
/// reader `ICANON`).
///
/// One `tcgetattr` a frame (``read()``); one `tcsetattr` when echo changes.
/// Used on the presenter thread only, as every ``RenderBackend`` method.
struct TerminalEcho {
    private let fd: FileDescriptor
    /// Whether the host turns echo off at all.
    private let silences: Bool
    /// The local modes before the command started; echo and canonical
    /// input when they could not be read.
    private let before: tcflag_t
    /// The local modes the host set when it turned echo off; `nil` while
    /// echo is not the host's to give back.
    private var hostModes: tcflag_t?
    /// `ECHONL` when the host turned it on with echo off (it is turned off
    /// again with echo back on).
    private var hostNewlineEcho: tcflag_t = 0
    /// The Ctrl-C, Ctrl-\ and Ctrl-Z that had come when the host turned
    /// echo off (``SwallowedKey``): one after is echoed when it is given back.
    private var keysBefore: UInt64 = 0
    /// Where keys are counted: the terminal's signals (a test's own record otherwise).
    var keys: @Sendable () -> UInt64 = { SwallowedKey.keys }

    /// Reads the terminal's settings now: call it before the command starts.
    /// `silences`: echo is turned off while the region is shown.
    init(fd: FileDescriptor, silences: Bool) {
        self.fd = fd
        self.silences = silences
        before = TerminalShim.settings(fd)?.c_lflag ?? tcflag_t(ECHO | ICANON)
    }

    /// The terminal's local modes now; `nil` when it is not a terminal.
    func read() -> tcflag_t? { TerminalShim.settings(fd)?.c_lflag }

    /// True when `modes` (``read()``) put the terminal in a mode for reading
    /// a password or a key that the command set.
    func commandIsAsking(_ modes: tcflag_t?) -> Bool {
        guard let modes else { return false }
        let echoOff = modes & tcflag_t(ECHO) == 0
        let keyByKey = modes & tcflag_t(ICANON) == 0 && before & tcflag_t(ICANON) != 0
        guard let hostModes else { return keyByKey || (echoOff && before & tcflag_t(ECHO) != 0) }
        // Echo off is the host's as long as nothing else changed; a command
        // that changed a local mode while it is off has set its own.
        return modes != hostModes && (echoOff || keyByKey)
    }

    /// Before the region is drawn: turns echo off if it is on (`modes`:
    /// ``read()`` just before). A key typed before now was echoed by the
    /// terminal, or not, as its settings said: only later ones count.
    mutating func silence(_ modes: tcflag_t?) {
        guard silences, let modes, modes & tcflag_t(ECHO) != 0 else { return }
        let newlineEcho = modes & tcflag_t(ECHONL) == 0 ? tcflag_t(ECHONL) : 0
        let silent = modes & ~tcflag_t(ECHO) | newlineEcho
        guard TerminalShim.setLocalModes(fd, to: silent, ifStill: modes) else { return }
        hostModes = silent
        hostNewlineEcho = newlineEcho
        keysBefore = keys()
    }

    /// Once the region is gone: turns echo back on if the host turned it off
    /// and the local modes are still the host's, and returns the echo of a
    /// Ctrl-C, Ctrl-\ or Ctrl-Z typed while they were (``SwallowedKey``),
    /// to be written where the cursor is. Empty otherwise.
    mutating func giveBack() -> [UInt8] {
        guard let hostModes, let settings = TerminalShim.settings(fd), settings.c_lflag == hostModes,
            TerminalShim.setLocalModes(fd, to: (hostModes | tcflag_t(ECHO)) & ~hostNewlineEcho, ifStill: hostModes)
        else { return [] }
        self.hostModes = nil
        return SwallowedKey.echo(of: keys(), since: keysBefore, with: settings)
    }
}
