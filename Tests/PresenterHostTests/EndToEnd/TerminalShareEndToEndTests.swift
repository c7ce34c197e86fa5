import Foundation
import Glibc
import Testing

/// Many runs, one terminal (issue 34): two runs drawing on one terminal at
/// once (`make -j2`) show one region, and both outcome lines end up in the
/// scrollback whole, once each; a lock folder another user could reach is
/// refused (the run draws as it would alone); a hostile client of the
/// holder's socket neither stalls nor grows it. Through the real binary in
/// tmux.
@Suite(
    "run end to end: one region per terminal", .serialized,
    .enabled(if: TmuxSession.isAvailable, TmuxSession.missingNote))
struct TerminalShareEndToEndTests {
    /// Box corners, sides and mbhud's spinner frames: what a region leaves
    /// behind when another draws over it.
    static let regionGlyphs = Set("╭╮╰╯│⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    /// A script that marks it started, then waits for `go`.
    static func script(in folder: URL, _ name: String, go: GoFile) throws -> String {
        let path = folder.appendingPathComponent("\(name).sh").path
        let started = folder.appendingPathComponent("\(name).started").path
        try "touch '\(started)'\n\(go.wait)\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `joinerFirst`: the run that joined ends first (its line goes to the
    /// holder, above the region, which stays), or last (the holder gone, it
    /// prints its line itself).
    @Test(arguments: [true, false])
    func makeDashJ2DrawsOneRegionAndKeepsBothOutcomeLines(joinerFirst: Bool) throws {
        let folder = TestPaths.temporaryDirectory("share")
        let runtime = TestPaths.temporaryDirectory("runtime")
        let go = (GoFile(), GoFile())
        let binary = TestPaths.binary.path
        let a = try Self.script(in: folder, "a", go: go.0)
        let b = try Self.script(in: folder, "b", go: go.1)
        let makefile = folder.appendingPathComponent("Makefile").path
        try """
        all: a b
        a:
        \t@'\(binary)' run --working 'Working A' --success 'A done' -- sh '\(a)'
        b:
        \t@'\(binary)' run --working 'Working B' --success 'B done' -- sh '\(b)'

        """.write(toFile: makefile, atomically: true, encoding: .utf8)
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        tmux.type("XDG_RUNTIME_DIR=\(TmuxSession.quoted(runtime.path)) make -j2 -s -f \(TmuxSession.quoted(makefile))")
        let started = ["a", "b"].map { folder.appendingPathComponent("\($0).started").path }
        #expect(waitUntil(timeout: TestTime.scaled(20)) { started.allSatisfy(FileManager.default.fileExists) })
        let screen = try #require(tmux.waitFor { $0.contains { $0.contains("Working") && $0.contains("│") } })
        #expect(screen.filter { $0.contains("╭") }.count == 1, "one region: \(screen)")
        #expect(
            screen.filter { $0.contains("Working A") || $0.contains("Working B") }.count == 1, "one region: \(screen)")
        let holderIsA = screen.contains { $0.contains("Working A") }
        let (joiner, holder) = holderIsA ? ("B done", "A done") : ("A done", "B done")
        let (joinerGo, holderGo) = holderIsA ? (go.1, go.0) : (go.0, go.1)
        if joinerFirst {
            joinerGo.create()
            let joined = try #require(tmux.waitFor { $0.contains { $0.contains(joiner) } })
            let line = try #require(joined.firstIndex { $0.contains(joiner) })
            let top = try #require(joined.firstIndex { $0.contains("╭") }, "the region went: \(joined)")
            #expect(line < top, "above the region: \(joined)")
            holderGo.create()
        } else {
            holderGo.create()
            try #require(tmux.waitFor { $0.contains { $0.contains(holder) } } != nil)
            joinerGo.create()
        }
        try #require(
            tmux.waitFor { $0.contains { $0.contains("A done") || $0.contains("B done") } && $0.last == "$" } != nil)
        let history = tmux.capture(history: true)
        #expect(history.filter { $0.contains("A done") } == ["✔ A done"], "\(history)")
        #expect(history.filter { $0.contains("B done") } == ["✔ B done"], "\(history)")
        #expect(!history.contains { $0.contains(where: Self.regionGlyphs.contains) }, "left behind: \(history)")
    }

    /// Runs that joined: one's `--output stream` lines, and another's
    /// failure with its output, kept for the failure, are printed above the
    /// holder's region, which stays; the exit status is the command's.
    @Test func joinedRunsStreamedLinesAndFailureGoAboveTheRegion() throws {
        let folder = TestPaths.temporaryDirectory("share")
        let runtime = TestPaths.temporaryDirectory("runtime")
        let go = GoFile()
        let binary = TmuxSession.quoted(TestPaths.binary.path)
        let started = folder.appendingPathComponent("started").path
        let status = folder.appendingPathComponent("status").path
        let holding = "touch \(TmuxSession.quoted(started)); \(go.wait)"
        let script = folder.appendingPathComponent("runs.sh").path
        try """
        \(binary) run --working Holding --success Held -- sh -c \(TmuxSession.quoted(holding)) &
        \(shellWaitUntil("[ -e \(TmuxSession.quoted(started)) ]"))
        \(binary) run --output stream --working Streaming -- sh -c 'echo streamed-1'
        \(binary) run --working Joining -- sh -c 'echo joined-out-1; echo joined-out-2; exit 3'
        echo $? > \(TmuxSession.quoted(status))
        wait

        """.write(toFile: script, atomically: true, encoding: .utf8)
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        tmux.type("XDG_RUNTIME_DIR=\(TmuxSession.quoted(runtime.path)) sh \(TmuxSession.quoted(script))")
        let screen = try #require(tmux.waitFor { $0.contains("joined-out-2") })
        #expect(waitUntil(timeout: TestTime.scaled(10)) { FileManager.default.fileExists(atPath: status) })
        #expect((try? String(contentsOfFile: status, encoding: .utf8)) == "3\n")
        let top = try #require(screen.firstIndex { $0.contains("╭") }, "the region went: \(screen)")
        let failure = try #require(screen.firstIndex { $0.hasPrefix("✖") }, "\(screen)")
        let output = try #require(screen.firstIndex(of: "joined-out-1"))
        #expect(failure < output && screen[output + 1] == "joined-out-2" && output + 1 < top, "\(screen)")
        #expect((screen.firstIndex(of: "streamed-1") ?? top) < failure, "\(screen)")
        #expect(screen.contains { $0.contains("Holding") }, "\(screen)")
        go.create()
        try #require(tmux.waitFor { $0.contains("✔ Held") && $0.last == "$" } != nil)
        let history = tmux.capture(history: true)
        #expect(
            history.filter { $0.contains("joined-out") || $0.contains("streamed") }
                == ["streamed-1", "joined-out-1", "joined-out-2"], "\(history)")
        #expect(!history.contains { $0.contains(where: Self.regionGlyphs.contains) }, "left behind: \(history)")
    }

    /// Plain lines (`--static`, a stderr that is not a terminal) draw no
    /// region: they take no lock, and make nothing.
    @Test func plainLinesTakeNoLock() throws {
        let runtime = TestPaths.temporaryDirectory("runtime")
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        let run = "XDG_RUNTIME_DIR=\(TmuxSession.quoted(runtime.path)) \(TmuxSession.quoted(TestPaths.binary.path)) run"
        tmux.type("\(run) --static --success Static -- true; \(run) --success Piped -- true 2>&1 | cat; echo END")
        #expect(tmux.waitFor { $0.contains("END") } != nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: runtime.path) == [])
        let history = tmux.capture(history: true)
        #expect(history.contains { $0.contains("Static") } && history.contains { $0.contains("Piped") }, "\(history)")
    }

    /// A lock folder that is a link, another user's, or open to others is
    /// refused: nothing is made in it, and the run draws its region alone.
    @Test func aFolderAnotherUserCouldReachIsRefused() throws {
        let elsewhere = TestPaths.temporaryDirectory("elsewhere")
        let linked = TestPaths.temporaryDirectory("linked")
        try FileManager.default.createSymbolicLink(
            atPath: linked.appendingPathComponent("presenter-host").path, withDestinationPath: elsewhere.path)
        let open = TestPaths.temporaryDirectory("open")
        let openFolder = open.appendingPathComponent("presenter-host").path
        try FileManager.default.createDirectory(atPath: openFolder, withIntermediateDirectories: false)
        chmod(openFolder, 0o755)
        var refused = [(linked, elsewhere.path), (open, openFolder)]
        if geteuid() == 0 {
            let foreign = TestPaths.temporaryDirectory("foreign")
            let foreignFolder = foreign.appendingPathComponent("presenter-host").path
            try FileManager.default.createDirectory(atPath: foreignFolder, withIntermediateDirectories: false)
            chmod(foreignFolder, 0o700)
            chown(foreignFolder, 65534, 65534)
            refused.append((foreign, foreignFolder))
        }
        for (runtime, folder) in refused {
            let go = GoFile()
            let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
            defer { tmux.kill() }
            try #require(tmux.waitFor { $0.first == "$" } != nil)
            tmux.type(
                "XDG_RUNTIME_DIR=\(TmuxSession.quoted(runtime.path)) \(TmuxSession.quoted(TestPaths.binary.path)) run --working Alone --success Done -- sh -c \(TmuxSession.quoted(go.wait))"
            )
            #expect(tmux.waitFor { $0.contains { $0.contains("Alone") && $0.contains("│") } } != nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [], "\(folder)")
            go.create()
            #expect(tmux.waitFor { $0.contains("✔ Done") && $0.last == "$" } != nil)
        }
    }

    /// A client that sends a 10 MB line, and one that never reads what the
    /// holder answers, leave the holder drawing and serving: an honest
    /// line is printed above the region and answered, the reader that
    /// never reads is let go, and the holder's memory stays small.
    @Test func aHostileClientNeitherStallsNorGrowsTheHolder() throws {
        let runtime = TestPaths.temporaryDirectory("runtime")
        let go = GoFile()
        let tmux = try TmuxSession(command: TmuxSession.interactiveShell)
        defer { tmux.kill() }
        try #require(tmux.waitFor { $0.first == "$" } != nil)
        tmux.type(
            "XDG_RUNTIME_DIR=\(TmuxSession.quoted(runtime.path)) \(TmuxSession.quoted(TestPaths.binary.path)) run --working Holding --success Held -- sh -c \(TmuxSession.quoted(go.wait))"
        )
        try #require(tmux.waitFor { $0.contains { $0.contains("Holding") && $0.contains("│") } } != nil)
        let folder = runtime.appendingPathComponent("presenter-host").path
        let socket = try #require(
            try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".sock") })
        let path = folder + "/" + socket
        let shell = tmux.panePid
        let children = try String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        let holder = try #require(children.split(separator: " ").first.flatMap { pid_t($0) })
        let before = Self.peakMemory(of: holder)

        // 10 MB without a newline, then one: all read, none kept.
        let flood = try #require(Self.connect(path))
        defer { close(flood) }
        let chunk = [UInt8](repeating: 0x61, count: 65536)
        for _ in 0..<160 { try #require(Self.sendAll(chunk, on: flood), "the holder stopped reading") }
        try #require(Self.sendAll([0x0A], on: flood))

        // Lines, never reading the answers: let go, not waited for.
        let mute = try #require(Self.connect(path))
        defer { close(mute) }
        var letGo = false
        for _ in 0..<100_000 where !letGo {
            letGo = !Self.sendAll(Array("mute\n".utf8), on: mute)
        }
        #expect(letGo, "a client that never reads was kept")

        let honest = try #require(Self.connect(path))
        defer { close(honest) }
        try #require(Self.sendAll(Array("HONEST \u{1B}]0;title\u{07}line\n".utf8), on: honest))
        var answer: UInt8 = 0
        var reader = pollfd(fd: honest, events: Int16(POLLIN), revents: 0)
        #expect(poll(&reader, 1, Int32(TestTime.scaled(10) * 1000)) == 1 && read(honest, &answer, 1) == 1)
        let screen = try #require(tmux.waitFor { $0.contains { $0.contains("HONEST") } })
        let line = try #require(screen.first { $0.contains("HONEST") })
        #expect(line == "HONEST \\x1B]0;title\\x07line", "escaped as any message: \(screen)")
        #expect(screen.contains { $0.contains("Holding") && $0.contains("│") }, "still drawing: \(screen)")
        #expect(Self.peakMemory(of: holder) - before < 8 << 20, "the holder grew")
        go.create()
        #expect(tmux.waitFor { $0.contains { $0.contains("✔ Held") } } != nil)
    }

    static func connect(_ path: String) -> Int32? {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Sends all of `bytes`, waiting for room at most 10 s (scaled) at a
    /// time; false when the holder took none in that time or let go.
    static func sendAll(_ bytes: [UInt8], on fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes {
                send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                offset += sent
                continue
            }
            guard sent < 0 && (errno == EAGAIN || errno == EINTR) else { return false }
            var writer = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            guard poll(&writer, 1, Int32(TestTime.scaled(10) * 1000)) == 1, writer.revents & Int16(POLLOUT) != 0
            else { return false }
        }
        return true
    }

    /// VmHWM of `pid`, in bytes.
    static func peakMemory(of pid: pid_t) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") ?? 0) * 1024
    }
}
