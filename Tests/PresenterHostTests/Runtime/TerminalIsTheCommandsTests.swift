import Foundation
@testable import HostRuntime
@testable import HostSystem
@testable import HostText
import Testing

/// The terminal is the command's: the region touches only its own rows,
/// echo is the one setting the host changes and gives back only while it
/// is still the host's, and a command that asks the user something gets
/// the terminal (the backend on a real pseudo-terminal, a command's
/// `stty` played by the test on the same terminal).
@Suite("TerminalBackend: the terminal is the command's")
struct TerminalIsTheCommandsTests {
    func hud() -> Canvas {
        var canvas = Canvas(cols: 39, rows: 3)
        canvas.drawBox(col: 2, row: 0, width: 20, height: 3)
        return canvas
    }

    /// What `stty` run by the command does: reads, changes, sets.
    func stty(_ terminal: PseudoTerminal, _ change: (inout termios) -> Void) {
        var settings = termios()
        tcgetattr(terminal.follower, &settings)
        change(&settings)
        tcsetattr(terminal.follower, TCSANOW, &settings)
    }

    func settings(_ terminal: PseudoTerminal) -> termios {
        var settings = termios()
        tcgetattr(terminal.follower, &settings)
        return settings
    }

    func backend(_ terminal: PseudoTerminal) -> TerminalBackend {
        TerminalBackend(fd: terminal.followerFD, regionRows: 3, color: false, unicode: true, isForeground: { true })
    }

    let echo = tcflag_t(ECHO)

    @Test func aSettingTheCommandChangedStaysAndEchoComesBack() throws {
        let terminal = try PseudoTerminal(cols: 40, rows: 10)
        let backend = backend(terminal)
        backend.present(hud())
        #expect(settings(terminal).c_lflag & echo == 0)
        stty(terminal) { $0.c_iflag &= ~tcflag_t(IXON) }  // stty -ixon
        backend.present(hud())
        backend.finish()
        #expect(settings(terminal).c_lflag & echo != 0)
        #expect(settings(terminal).c_lflag & tcflag_t(ECHONL) == 0)
        #expect(settings(terminal).c_iflag & tcflag_t(IXON) == 0)
    }

    @Test func echoOffBeforeTheRunStaysOffAndTheRegionIsDrawn() throws {
        let terminal = try PseudoTerminal(cols: 40, rows: 10)
        stty(terminal) { $0.c_lflag &= ~tcflag_t(ECHO) }
        let backend = backend(terminal)
        backend.present(hud())
        #expect(String(decoding: terminal.drain(), as: UTF8.self).contains("╭"))
        backend.finish()
        #expect(settings(terminal).c_lflag & echo == 0)
    }

    @Test func echoTheCommandTurnedOffBeforeTheFirstFrameIsItsOwn() throws {
        let terminal = try PseudoTerminal(cols: 40, rows: 10)
        // Made before the command starts: the settings are read then.
        let backend = backend(terminal)
        stty(terminal) { $0.c_lflag &= ~tcflag_t(ECHO) }
        backend.present(hud())
        // Asking: nothing drawn, the cursor not hidden.
        #expect(terminal.drain().isEmpty)
        stty(terminal) { $0.c_lflag |= tcflag_t(ECHO) }
        backend.present(hud())
        #expect(String(decoding: terminal.drain(), as: UTF8.self).contains("╭"))
        #expect(settings(terminal).c_lflag & echo == 0)
        backend.finish()
        #expect(settings(terminal).c_lflag & echo != 0)
        // And once more, left off by the command at its end: it stays off.
        let again = self.backend(terminal)
        again.present(hud())
        stty(terminal) { $0.c_lflag &= ~tcflag_t(ECHO | ECHOK) }
        again.finish()
        #expect(settings(terminal).c_lflag & echo == 0)
    }

    @Test(
        "a password or key reader set up while the region is shown takes it off, shows its prompt, and gets it back after",
        arguments: [
            tcflag_t(ECHO | ECHOK | ECHONL),  // bash's read -s
            tcflag_t(ECHO | ECHONL),  // OpenSSH's and sudo's readpassphrase (ssh, ssh-keygen, sudo)
            tcflag_t(ECHO | ISIG),  // getpass(3)
            tcflag_t(ICANON),  // read -n 1, a key reader
        ])
    func aReaderGetsTheTerminal(cleared: tcflag_t) throws {
        let terminal = try PseudoTerminal(cols: 40, rows: 10)
        let backend = backend(terminal)
        let prompt = LockedBox(Array("Password: ".utf8))
        backend.showsPrompts {
            var taken: [UInt8] = []
            prompt.mutate { bytes in (taken, bytes) = (bytes, []) }
            return taken
        }
        backend.present(hud())
        let hostModes = settings(terminal).c_lflag
        _ = terminal.drain()
        stty(terminal) { $0.c_lflag &= ~cleared }
        backend.present(hud())
        let aside = String(decoding: terminal.drain(), as: UTF8.self)
        #expect(aside.hasSuffix("\u{1B}[?25hPassword: "), "\(aside.debugDescription)")
        #expect(aside.contains("\u{1B}[3M"))
        // While it asks, frames draw nothing.
        backend.present(hud())
        backend.printAbove("output\n")
        #expect(String(decoding: terminal.drain(), as: UTF8.self) == "output\r\n")
        // The reader puts back what it found: the host's settings.
        stty(terminal) { $0.c_lflag = hostModes }
        backend.present(hud())
        #expect(String(decoding: terminal.drain(), as: UTF8.self).contains("╭"))
        backend.finish()
        #expect(settings(terminal).c_lflag & echo != 0)
    }

    @Test func aReaderLeftBehindKeepsItsSettings() throws {
        let terminal = try PseudoTerminal(cols: 40, rows: 10)
        let backend = backend(terminal)
        backend.present(hud())
        stty(terminal) { $0.c_lflag &= ~tcflag_t(ICANON) }  // stty raw, and an exit
        backend.finish()
        #expect(settings(terminal).c_lflag & tcflag_t(ECHO | ICANON) == 0)
    }

    @Test("Ctrl-Z typed while the host had echo off is echoed when echo comes back, as the terminal would have")
    func aSwallowedKeyIsEchoed() throws {
        let terminal = try PseudoTerminal(cols: 40, rows: 10)
        let backend = backend(terminal)
        // The keys of this test's terminal: other tests' backends run meanwhile.
        let keys = LockedBox<UInt64>(0)
        backend.swallowedKeys = { keys.value }
        func type(_ signal: Int32) { keys.mutate { $0 = SwallowedKey.recording(signal, after: $0) } }
        backend.present(hud())
        _ = terminal.drain()
        type(SIGTSTP)
        backend.suspend()
        #expect(String(decoding: terminal.drain(), as: UTF8.self).hasSuffix("\u{1B}[?25h^Z"))
        backend.present(hud())
        _ = terminal.drain()
        backend.suspend()
        #expect(String(decoding: terminal.drain(), as: UTF8.self).hasSuffix("\u{1B}[?25h"))
        // A key from before the host turned echo off was the terminal's to echo.
        type(SIGINT)
        backend.present(hud())
        backend.finish()
        #expect(String(decoding: terminal.drain(), as: UTF8.self).hasSuffix("\u{1B}[?25h"))
        // Ctrl-C and Ctrl-\ too.
        let again = self.backend(terminal)
        again.swallowedKeys = { keys.value }
        again.present(hud())
        type(SIGQUIT)
        type(SIGINT)
        again.finish()
        #expect(String(decoding: terminal.drain(), as: UTF8.self).hasSuffix("\u{1B}[?25h^C"))
    }
}
