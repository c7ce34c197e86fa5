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
