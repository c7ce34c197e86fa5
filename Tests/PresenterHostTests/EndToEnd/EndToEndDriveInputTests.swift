import Foundation
import Glibc
import Testing
@testable import HostSystem

/// What `drive` reads from stdin is data (issue 37, "Drive's input"),
/// through the real binary: an id a client chose is escaped where an
/// error line shows it, a line that is not UTF-8 is refused, a non-blocking
/// stdin is waited on, and a read error is said as one.
@Suite("drive end to end: its input is data")
struct EndToEndDriveInputTests {
    private let utf8 = ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"]

    /// Runs `drive` with `bytes` on stdin, in at most 60 s.
    private func drive(_ bytes: [UInt8]) throws -> (status: Int32, stderr: String) {
        let started = MonotonicTime.seconds()
        let process = try TestProcess(TestPaths.binary, ["drive"], environment: utf8)
        let (_, err) = process.communicate(input: bytes)
        let status = process.wait()
        #expect(MonotonicTime.seconds() - started < 60)
        return (status, String(decoding: err, as: UTF8.self))
    }

    @Test func anIdIsEscapedInTheErrorsThatShowIt() throws {
        let lines = [
            #"{"succeed": "x\u001b]2;PWNED\u0007"}"#,
            #"{"start": "c\u202e\u009b2J", "working": "W"}"#,
            #"{"start": "c\u202e\u009b2J", "working": "again"}"#,
            #"{"succeed": "c\u202e\u009b2J", "message": "Done"}"#,
        ]
        let result = try drive(Array(lines.map { $0 + "\n" }.joined().utf8))
        #expect(result.status == 0)
        #expect(
            result.stderr == #"""
                Error: stdin:1: no running action "x\x1B]2;PWNED\x07"; start it first with {"start": "x\x1B]2;PWNED\x07", ...}; the line was skipped
                W
                Error: stdin:3: action "c\u{202E}\x9B2J" is already running; give each running action its own id; the line was skipped
                ✔ Done

                """#)
        // Nothing the id held reaches the terminal: no ESC, BEL, CSI or override.
        #expect(!result.stderr.unicodeScalars.contains { [0x1B, 0x07, 0x9B, 0x202E].contains($0.value) })
    }

    @Test func aLineThatIsNotUTF8IsRefusedWithItsNumber() throws {
        let bytes =
            Array(#"{"start": ""#.utf8) + [0xFF] + Array(#"", "working": "first"}"#.utf8) + [0x0A]
            + Array(#"{"start": ""#.utf8) + [0xFE] + Array(#"", "working": "second"}"#.utf8) + [0x0A]
            + Array(#"{"start": "ok", "working": "W"}"#.utf8) + [0xC3, 0x0A]
            // Ids are their bytes: é precomposed and decomposed are two actions.
            + Array(
                "{\"start\": \"\u{E9}\", \"working\": \"one\"}\n{\"start\": \"e\u{301}\", \"working\": \"two\"}\n".utf8)
            + Array("{\"succeed\": \"\u{E9}\"}\n{\"succeed\": \"e\u{301}\"}\n".utf8)
        let result = try drive(bytes)
        #expect(result.status == 0)
        #expect(
            result.stderr == #"""
                Error: stdin:1: byte 12 (\xFF) is not UTF-8; send each line as UTF-8 text; the line was skipped
                Error: stdin:2: byte 12 (\xFE) is not UTF-8; send each line as UTF-8 text; the line was skipped
                Error: stdin:3: byte 32 (\xC3) is not UTF-8; send each line as UTF-8 text; the line was skipped
                one
                two

                """#)
    }

    /// A parent that set O_NONBLOCK on the pipe it hands over (an event
    /// loop's): the host's first read finds nothing yet (EAGAIN), which it
    /// took as the end, failing every action. The program is started
    /// through python, which sets the flag and executes it, and the lines
    /// are written only once its reader waits (or it ended, as it did).
    @Test(.enabled(if: Self.python != nil, "no /usr/bin/python3 to set O_NONBLOCK on stdin"))
    func aNonBlockingStdinIsWaitedOnNotTakenAsTheEnd() throws {
        let started = MonotonicTime.seconds()
        let setFlag =
            "import fcntl, os, sys; fcntl.fcntl(0, fcntl.F_SETFL, fcntl.fcntl(0, fcntl.F_GETFL) | os.O_NONBLOCK); os.execv(sys.argv[1], sys.argv[1:])"
        let process = try TestProcess(
            try #require(Self.python), ["-c", setFlag, TestPaths.binary.path, "drive"], environment: utf8)
        #expect(
            waitUntil(timeout: 30) { Self.waitsInPoll(process.pid, thread: "drive-stdin") || Self.ended(process.pid) })
        let (_, err) = process.communicate(
            input: Array(#"{"start": "a", "working": "W"}\#n{"succeed": "a", "message": "Done"}\#n"#.utf8))
        #expect(process.wait() == 0)
        #expect(String(decoding: err, as: UTF8.self) == "W\n✔ Done\n")
        #expect(MonotonicTime.seconds() - started < 60)
    }

    @Test func aReadErrorIsSaidAndTheStatusIsOne() throws {
        // A directory as stdin: read fails with EISDIR, which was taken as a clean end.
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", #"exec "$0" drive < /"#, TestPaths.binary.path], environment: utf8)
        #expect(result.status == 1)
        #expect(result.stderr == "Error: stdin: cannot read it (Is a directory); the actions still running fail\n")
    }

    static let python: URL? =
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        ? URL(fileURLWithPath: "/usr/bin/python3") : nil

    /// Whether the thread of `pid` named `thread` sleeps in `poll` (x86_64:
    /// system call 7; other machines: `ppoll`, 73 on arm64 and 271 on x86_64).
    static func waitsInPoll(_ pid: pid_t, thread: String) -> Bool {
        for task in threads(of: pid, named: thread) {
            guard let call = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/syscall", encoding: .utf8)
            else { continue }
            #if arch(x86_64)
                if call.hasPrefix("7 ") || call.hasPrefix("271 ") { return true }
            #else
                if call.hasPrefix("73 ") { return true }
            #endif
        }
        return false
    }

    /// The ids of the threads of `pid` named `name` (as DetachedThread names them).
    static func threads(of pid: pid_t, named name: String) -> [String] {
        let tasks = "/proc/\(pid)/task"
        return ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).filter {
            (try? String(contentsOfFile: "\(tasks)/\($0)/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines)
                == name
        }
    }

    /// Whether `pid` (a child not yet reaped) has ended: a zombie, or gone.
    static func ended(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return true }
        return stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }
}
