import Foundation
import Testing

/// Every size the host reads from the command is bounded (issue 37): a
/// line without a newline under `--output tail`, `--output stream` and
/// `--log`, in a terminal, costs 64 KiB, not its length, through the real
/// binary. Memory is the host's VmHWM; the code before the bound held the
/// whole line, and more (48 MiB of it: 70 MB to 250 MB; with the bound
/// the host holds about 20 to 26 MB).
@Suite("every size is bounded: output lines")
struct BoundedOutputLineTests {
    /// The line: 48 MiB of `a`, no newline.
    static let lineBytes = 48 << 20
    /// More than the host's own footprint (about 20 MB) and less than the
    /// line: a host that keeps it whole passes it.
    static let peakLimit = 40 << 20

    static func script(_ text: String) throws -> String {
        let folder = TestPaths.temporaryDirectory("bounded-lines")
        let path = folder.appendingPathComponent("write.sh").path
        try ("#!/bin/sh\n" + text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    static var longLine: String { "head -c \(lineBytes) /dev/zero | tr '\\0' a" }

    @Test(arguments: ["tail", "stream", "on-failure"])
    func aLineWithoutNewlineCostsAPieceInATerminal(mode: String) throws {
        let run = try MeasuredRun(
            ["run", "--output", mode, "--working", "Copying", "--", try Self.script(Self.longLine)])
        #expect(run.status == 0)
        #expect(run.seconds < TestTime.scaled(100))
        #expect(run.peakBytes < Self.peakLimit, "\(mode): the host held \(run.peakBytes >> 20) MB")
        if mode == "stream" {
            // Pieces, not cuts: every byte of the line reached the terminal.
            #expect(run.count(of: UInt8(ascii: "a")) >= Self.lineBytes)
        }
    }

    @Test func aLineWithoutNewlineCostsAPieceInTheLog() throws {
        let log = TestPaths.temporaryDirectory("bounded-log").appendingPathComponent("log").path
        let run = try MeasuredRun(["run", "--log", log, "--", try Self.script(Self.longLine)])
        #expect(run.status == 0)
        #expect(run.peakBytes < Self.peakLimit, "the host held \(run.peakBytes >> 20) MB")
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        let pieces = lines.filter { $0.contains("presenter-host: output: aaaa") }
        // 768 pieces of 64 KiB, each a line of its own; no byte lost.
        #expect(pieces.count == Self.lineBytes / 65536)
        #expect(pieces.map { $0.count(where: { $0 == "a" }) }.reduce(0, +) == Self.lineBytes)
    }

    /// A progress bar redrawn with `\r` (curl, wget) for 48 MiB: what the
    /// host keeps is the last frame, which the log records as the line.
    @Test func aBarRedrawnWithCarriageReturnsCostsItsLastFrame() throws {
        let log = TestPaths.temporaryDirectory("bounded-bar").appendingPathComponent("log").path
        let bar = try Self.script(
            "yes ' 45%|#########           | 12.3MB 1.2MB/s' | tr '\\n' '\\r' | head -c \(Self.lineBytes)\n"
                + "printf '\\r100%% done\\n'")
        let run = try MeasuredRun(["run", "--output", "tail", "--log", log, "--", bar])
        #expect(run.status == 0)
        #expect(run.peakBytes < Self.peakLimit, "the host held \(run.peakBytes >> 20) MB")
        let output = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .filter { $0.contains("presenter-host: output: ") }
        #expect(output.count == 1 && output.first?.hasSuffix("presenter-host: output: 100% done") == true, "\(output)")
    }

    /// Plain lines (stderr a file): `--output stream` passes every byte.
    @Test func plainStreamPassesEveryByte() throws {
        let run = try MeasuredRun(
            ["run", "--output", "stream", "--working", "Copying", "--", try Self.script(Self.longLine)],
            terminal: false)
        #expect(run.status == 0)
        #expect(run.peakBytes < Self.peakLimit, "the host held \(run.peakBytes >> 20) MB")
        #expect(run.count(of: UInt8(ascii: "a")) >= Self.lineBytes)
    }
}

/// Messages are cut where they are read (4 KiB, with an ellipsis), so
/// cleaning costs what a short one does and nothing near the presenter
/// channel's frame (1 MiB) reaches a presenter; `--messages` reads at
/// most 1 MiB; plain lines drop what a region drops (issue 37).
@Suite("every size is bounded: messages")
struct BoundedMessageTests {
    static func folder() -> URL { TestPaths.temporaryDirectory("bounded-messages") }

    @Test func messagesFromDevZeroAreRefusedAtOnce() throws {
        let run = try MeasuredRun(["run", "--messages", "/dev/zero", "--", "true"], terminal: false)
        #expect(run.status == 65)
        #expect(run.seconds < TestTime.scaled(10))
        #expect(run.peakBytes < 40 << 20, "the host held \(run.peakBytes >> 20) MB")
        let text = String(decoding: run.output, as: UTF8.self)
        #expect(
            text
                == "Error: /dev/zero: the messages file is larger than 1 MiB; keep only the messages in it (a few kilobytes)\n"
        )
    }

    /// 60,000 clusters of `a` and seven combining marks (900 KB) after a
    /// colour code: read, cut and cleaned at once (the whole took seconds,
    /// quadratic in clusters), and the working message every consumer
    /// gets (here `--events`) is 4 KiB at most, ending in `…`.
    @Test func aHugeMessageIsCutWhereItIsRead() throws {
        let folder = Self.folder()
        let messages = folder.appendingPathComponent("messages.json")
        let long = "\u{1B}[1m" + String(repeating: "a" + String(repeating: "\u{301}", count: 7), count: 60_000)
        let json = try JSONSerialization.data(withJSONObject: ["run": ["working": long]])
        try json.write(to: messages)
        let events = folder.appendingPathComponent("events").path
        let run = try MeasuredRun(
            ["run", "--messages", messages.path, "--events", events, "--", "true"], terminal: true)
        #expect(run.status == 0)
        #expect(run.seconds < TestTime.scaled(20))
        let start = try #require(try String(contentsOfFile: events, encoding: .utf8).split(separator: "\n").first)
        let event = try #require(try JSONSerialization.jsonObject(with: Data(start.utf8)) as? [String: Any])
        let message = try #require(event["message"] as? String)
        #expect(message.utf8.count <= 4096 && message.hasSuffix("…"), "\(message.utf8.count) bytes")
        #expect(message.unicodeScalars.first == "a", "the colour code is not cleaned away")
        #expect(!String(decoding: run.output, as: UTF8.self).contains("ended its process"))
    }

    /// The default working message is the command line: 1.5 MB of it
    /// (fifteen arguments of 100 KB) made the bundled mbhud end its process
    /// ("ended its process in show (exit status 70)").
    @Test func aLongCommandLineDoesNotBreakThePresenter() throws {
        let word = String(repeating: "x", count: 100_000)
        let run = try MeasuredRun(["run", "--", "true"] + Array(repeating: word, count: 15))
        #expect(run.status == 0)
        let text = String(decoding: run.output, as: UTF8.self)
        #expect(!text.contains("ended its process") && !text.contains("going on with plain progress lines"))
    }

    /// A `drive` line's message (lines are up to 64 KiB) is cut as any
    /// message is.
    @Test func aDriveMessageIsCutWhereItIsRead() throws {
        let long = String(repeating: "w", count: 60_000)
        let result = try ProcessRunner.run(
            TestPaths.binary, ["drive"], environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"],
            stdin: #"{"start": "a", "working": "\#(long)"}"# + "\n" + #"{"succeed": "a"}"# + "\n")
        #expect(result.status == 0)
        let working = try #require(result.stderr.split(separator: "\n").first)
        #expect(
            working.utf8.count <= 4096 && working.hasSuffix("…") && working.hasPrefix("www"),
            "\(working.utf8.count) bytes")
    }

    /// Plain lines (`TERM=dumb`) drop the bidirectional overrides and
    /// isolates a terminal region drops, so a line reads as it holds.
    @Test func plainLinesDropBidiControls() throws {
        let run = try MeasuredRun(
            ["run", "--working", "abc\u{202E}txt.exe\u{2066}x\u{2069}", "--", "true"],
            environment: ["TERM": "dumb"], terminal: false)
        #expect(run.status == 0)
        let text = String(decoding: run.output, as: UTF8.self)
        #expect(text.hasPrefix("abctxt.exex\n"), "\(text.debugDescription)")
        #expect(
            !text.unicodeScalars.contains {
                (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
            })
    }
}

/// `--print-plugin-path` prints each folder escaped as `--list` does: a
/// name with ESC, OSC 52 or a newline (a forged second entry) shows as
/// escapes, one line per folder (issue 37).
@Suite("text that reaches the terminal: --print-plugin-path")
struct PrintPluginPathEscapingTests {
    @Test func hostileFolderNamesAreEscaped() throws {
        let parent = TestPaths.temporaryDirectory("plugin-path")
        let hostile = parent.appendingPathComponent("p\u{1B}]52;c;cHduZWQ=\u{07}\n/etc/evil").path
        try FileManager.default.createDirectory(atPath: hostile, withIntermediateDirectories: true)
        let result = try ProcessRunner.host(["--plugin-dir", hostile, "--print-plugin-path"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(
            lines.first == "\(parent.path)/p\\x1B]52;c;cHduZWQ=\\x07\\n/etc/evil", "\(result.stdout.debugDescription)")
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{07}"))
        #expect(!lines.contains("/etc/evil"), "a newline forged a second entry")
    }
}
