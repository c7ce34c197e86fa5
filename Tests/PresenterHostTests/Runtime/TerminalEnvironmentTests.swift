import Foundation
import HostRuntime
import PresenterHost
import Testing

@Suite("Terminal environment and backend choice")
struct TerminalEnvironmentTests {
    @Test(
        "colour: the flag wins; auto is on unless NO_COLOR is non-empty; CLICOLOR_FORCE forces",
        arguments: [
            (ColorMode.auto, [:], true),
            (.auto, ["NO_COLOR": "1"], false),
            (.auto, ["NO_COLOR": ""], true),
            (.auto, ["NO_COLOR": "1", "CLICOLOR_FORCE": "1"], true),
            (.auto, ["CLICOLOR_FORCE": "0", "NO_COLOR": "1"], false),
            (.always, ["NO_COLOR": "1"], true),
            (.never, ["CLICOLOR_FORCE": "1"], false),
        ] as [(ColorMode, [String: String], Bool)])
    func color(mode: ColorMode, environment: [String: String], enabled: Bool) {
        #expect(mode.isEnabled(environment: environment) == enabled)
    }

    @Test(
        "Unicode comes from LC_ALL, else LC_CTYPE, else LANG",
        arguments: [
            (["LANG": "en_US.UTF-8"], true),
            (["LANG": "de_DE.utf8"], true),
            (["LC_ALL": "C", "LANG": "en_US.UTF-8"], false),
            (["LC_ALL": "", "LC_CTYPE": "C.UTF-8", "LANG": "C"], true),
            (["LC_CTYPE": "POSIX", "LANG": "en_US.UTF-8"], false),
            ([:], false),
        ] as [([String: String], Bool)])
    func unicode(environment: [String: String], expected: Bool) {
        #expect(TerminalEnvironment.isUnicode(environment) == expected)
    }

    @Test("TERM unset or empty is plain lines, like TERM=dumb", arguments: [[:], ["TERM": ""], ["TERM": "dumb"]])
    func unknownTerminal(environment: [String: String]) throws {
        #expect(TerminalEnvironment.wantsPlainLines(isTerminal: true, environment))
        let terminal = try PseudoTerminal(cols: 100, rows: 30)
        #expect(BackendFactory.mode(for: terminal.followerFD, environment: environment) == .plain)
        #expect(BackendFactory.make(for: terminal.followerFD, environment: environment) is PlainBackend)
        #expect(!TerminalEnvironment.wantsPlainLines(isTerminal: true, ["TERM": "xterm-256color"]))
    }

    @Test("not a terminal, TERM=dumb or CI set (but not to empty, 0 or false) means plain lines")
    func plainLines() throws {
        let pipe = OutputPipe()
        #expect(BackendFactory.mode(for: pipe.writeEnd, environment: ["TERM": "xterm"]) == .plain)
        #expect(BackendFactory.make(for: pipe.writeEnd, environment: ["TERM": "xterm"]) is PlainBackend)

        let terminal = try PseudoTerminal(cols: 100, rows: 30)
        #expect(BackendFactory.mode(for: terminal.followerFD, environment: ["TERM": "xterm"]) == .terminal)
        #expect(BackendFactory.mode(for: terminal.followerFD, environment: ["TERM": "dumb"]) == .plain)
        for value in ["true", "1", "yes", "dumb"] {
            #expect(
                BackendFactory.mode(for: terminal.followerFD, environment: ["TERM": "xterm", "CI": value]) == .plain)
        }
        for value in ["", "0", "false", "False", "FALSE"] {
            #expect(
                BackendFactory.mode(for: terminal.followerFD, environment: ["TERM": "xterm", "CI": value]) == .terminal)
        }
        let backend = BackendFactory.make(
            for: terminal.followerFD, environment: ["TERM": "xterm", "NO_COLOR": "1", "LANG": "C.UTF-8"],
            regionRows: 4)
        #expect(backend is TerminalBackend)
        #expect(backend.flags == [.unicode, .animated])
        #expect(backend.size == (99, 4))
    }

    @Test("the size is re-read from the terminal on refresh")
    func resize() throws {
        let terminal = try PseudoTerminal(cols: 100, rows: 30)
        let backend = TerminalBackend(fd: terminal.followerFD, color: false, unicode: false, silenceInput: false)
        #expect(backend.size == (99, 5))
        terminal.resize(cols: 60, rows: 3)
        #expect(backend.size == (99, 5))
        backend.refresh()
        #expect(backend.size == (59, 2))
    }
}

@Suite("Terminal resize")
struct TerminalResizeTests {
    @Test("SIGWINCH makes the runtime re-read the terminal's size")
    func sigwinch() throws {
        // A signal to this process: in a test process of its own.
        guard ChildTest.isChild else { return try ChildTest.run(Self.self) }
        let terminal = try PseudoTerminal(cols: 100, rows: 30)
        let backend = TerminalBackend(fd: terminal.followerFD, color: false, unicode: false, silenceInput: false)
        let runtime = PresenterRuntime(
            registry: PresenterRegistry(plugins: []), backend: backend, isolation: .inProcess)
        defer { runtime.shutdown() }
        terminal.resize(cols: 50, rows: 30)
        kill(getpid(), SIGWINCH)
        #expect(waitUntil(timeout: 10) { runtime.sync { backend.size.cols } == 49 })
        #expect(runtime.sync { backend.size } == (49, 5))
    }

    @Test("SIGCONT calls the resize handler too (the window may have changed while we were stopped)")
    func sigcont() throws {
        guard ChildTest.isChild else { return try ChildTest.run(Self.self) }
        let terminal = try PseudoTerminal(cols: 100, rows: 30)
        let backend = TerminalBackend(fd: terminal.followerFD, color: false, unicode: false, silenceInput: false)
        let called = SharedFlag(false)
        backend.watchResize { called.isSet = true }
        defer { backend.finish() }
        kill(getpid(), SIGCONT)
        #expect(waitUntil(timeout: 10) { called.isSet })
    }
}
