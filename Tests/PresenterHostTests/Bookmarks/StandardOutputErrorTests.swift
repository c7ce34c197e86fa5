import Foundation
@testable import HostBookmarks
import Testing

/// Every subcommand that writes stdout, run as the real binary with stdout
/// closed (`>&-`) and with stdout a pipe whose reader went away. Foundation's
/// `FileHandle.write` stopped the host with SIGILL (a `try!` inside it) in
/// both. Now, as coreutils does: a stdout that cannot be written is one
/// `Error:` line naming stdout, status 74 (EX_IOERR); a reader that went
/// away ends the host quietly with 141, what a shell shows for a writer that
/// SIGPIPE ended (whether SIGPIPE is ignored or not).
@Suite struct StandardOutputErrorTests {
    static let closedLine =
        "Error: cannot write to stdout (Bad file descriptor); give the command an open, writable stdout\n"

    /// A store with one bookmark, for `bookmarks --store`.
    static func store() throws -> String {
        let path = TestPaths.temporaryDirectory("stdout-store").appendingPathComponent("bookmarks.json").path
        _ = try BookmarkStore(path: path).add(Bookmark(url: "https://example.com/", title: "Example"))
        return path
    }

    /// The commands that write stdout, each a list of arguments.
    static func commands() throws -> [[String]] {
        [
            ["--help"], ["--version"], ["--print-plugin-path"], ["--list"], ["--list", "--json"],
            ["run", "--help"], ["drive", "--help"], ["add-bookmark", "--help"], ["check", "--help"],
            ["bookmarks", "--help"], ["bookmarks", "--store", try store()],
            ["bookmarks", "--json", "--store", try store()],
        ]
    }

    /// The host started by `sh -c script` (its `exec "$0" "$@"`), so the
    /// shell sets up stdout or SIGPIPE as a user's shell would.
    static func host(
        through script: String, _ arguments: [String], stdout: TestProcess.Stream = .pipe,
        environment: [String: String] = [:]
    ) throws -> ProcessResult {
        try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", script, TestPaths.binary.path] + arguments,
            environment: environment, stdout: stdout)
    }

    @Test func aClosedStdoutIsOneErrorLineAndStatus74() throws {
        for arguments in try Self.commands() {
            let result = try Self.host(through: #"exec "$0" "$@" >&-"#, arguments)
            #expect(result.status == 74, "\(arguments): \(result.stderr)")
            #expect(result.stderr.hasSuffix(Self.closedLine), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("Fatal error"), "\(arguments): \(result.stderr)")
        }
    }

    @Test func aReaderThatWentAwayEndsTheHostQuietlyWith141() throws {
        // SIGPIPE as the shell left it (its default: the write ends the host),
        // and ignored by the caller (`trap '' PIPE`; the write fails with EPIPE).
        for script in [#"exec "$0" "$@""#, #"trap '' PIPE; exec "$0" "$@""#] {
            for arguments in try Self.commands() {
                let result = try Self.host(through: script, arguments, stdout: .brokenPipe)
                #expect(result.status == 141, "\(script) \(arguments): \(result.stderr)")
                #expect(!result.stderr.contains("Error"), "\(script) \(arguments): \(result.stderr)")
            }
        }
    }

    /// add-bookmark --get-title ignores SIGPIPE itself (a closed stdout must
    /// not end it before it restored the terminal): the title's write is
    /// the one that finds stdout closed or its reader gone.
    @Test func getTitleWithStdoutClosedOrItsReaderGone() throws {
        let url = TitleServer.shared.url("/page?title=Closed")
        let arguments = ["add-bookmark", "--url", url, "--get-title"]
        let environment = AddBookmarkScriptTitleTests.environment
        let closed = try Self.host(through: #"exec "$0" "$@" >&-"#, arguments, environment: environment)
        #expect(closed.status == 74, "\(closed.stderr)")
        #expect(closed.stderr == Self.closedLine)
        let broken = try ProcessRunner.host(arguments, environment: environment, stdout: .brokenPipe)
        #expect(broken.status == 141, "\(broken.stderr)")
        #expect(broken.stderr == "")
    }

    /// The command under `run` gets stdout as the user gave it: closed is
    /// closed (the host's placeholder for it is not inherited), and a
    /// reader that went away is the command's SIGPIPE, not the host's.
    @Test func theCommandUnderRunGetsStdoutAsGiven() throws {
        let probe = #"if [ -e /proc/self/fd/1 ]; then echo "stdout open" >&2; else echo "stdout closed" >&2; fi"#
        let closed = try Self.host(
            through: #"exec "$0" "$@" >&-"#, ["run", "--working", "W", "--", "sh", "-c", probe],
            environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(closed.status == 0, "\(closed.stderr)")
        #expect(closed.stderr.contains("stdout closed\n"), "\(closed.stderr)")
        #expect(!closed.stderr.contains("Error"), "\(closed.stderr)")
        let broken = try ProcessRunner.host(
            ["run", "--working", "W", "--", "sh", "-c", "echo lost; echo \"after $?\" >&2"], stdout: .brokenPipe)
        // sh is ended by SIGPIPE at its echo, as without the host.
        #expect(!broken.stderr.contains("after"), "\(broken.stderr)")
        #expect(!broken.stderr.contains("Fatal error"), "\(broken.stderr)")
    }
}
