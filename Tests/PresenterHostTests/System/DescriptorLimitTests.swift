import Foundation
import Testing

/// A tiny open-file limit is one clear line and EX_OSERR, not a crash of
/// libdispatch (SIGILL at `ulimit -n 6` before the check), for every
/// command that runs work under a presenter, and so are descriptors the
/// host inherited that leave too few free; at the limit the host works.
@Suite("The open-file limit")
struct DescriptorLimitTests {
    /// `arguments` run by the host under `ulimit -n limit` (set by a shell
    /// that then becomes the host).
    private func host(limit: Int, _ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", TestPaths.binary.path] + arguments,
            environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
    }

    @Test(arguments: [
        ["run", "--", "echo", "hi"], ["drive"], ["add-bookmark", "--get-title", "--url", "http://127.0.0.1:9/"],
        ["check", "/nonexistent.so"],
    ])
    func aTinyLimitIsOneClearLine(_ arguments: [String]) throws {
        let result = try host(limit: 6, arguments)
        #expect(result.status == 71, "\(result.stderr)")
        #expect(
            result.stderr
                == "Error: the open-file limit (ulimit -n) is 6; presenter-host \(arguments[0]) needs at least 22: "
                + "raise it, e.g. ulimit -n 1024\n")
        #expect(result.stdout == "")
    }

    /// Descriptors a caller left open count against the limit: `exec 3<&0`
    /// ... `9<&0` under `ulimit -n 22` left 12 free, and libdispatch (run,
    /// drive) or the signal pipe (drive) then stopped the host with SIGILL,
    /// or the presenter and the progress channel failed one by one.
    @Test(arguments: [
        ["run", "--", "echo", "hi"], ["drive"], ["add-bookmark", "--get-title", "--url", "http://127.0.0.1:9/"],
        ["check", "/nonexistent.so"],
    ])
    func inheritedDescriptorsThatLeaveTooFewFreeAreOneClearLine(_ arguments: [String]) throws {
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            [
                "-c", "exec 3<&0 4<&0 5<&0 6<&0 7<&0 8<&0 9<&0 && ulimit -n 22 && exec \"$0\" \"$@\"",
                TestPaths.binary.path,
            ] + arguments,
            environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(result.status == 71, "\(result.stderr)")
        #expect(
            result.stderr
                == "Error: only 12 descriptors of the open-file limit (ulimit -n 22) are free, 7 being inherited; "
                + "presenter-host \(arguments[0]) needs 19 free besides stdin, stdout and stderr: "
                + "raise the limit (e.g. ulimit -n 1024) or close the inherited descriptors\n")
        #expect(result.stdout == "")
    }

    /// In a terminal, where its presenter runs (plain mode runs none).
    @Test func atTheLimitTheCommandRunsUnderItsPresenter() throws {
        let result = try ProcessRunner.runInTerminal(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "ulimit -n 22 && exec \"$0\" \"$@\"", TestPaths.binary.path]
                + ["run", "--working", "Working", "--success", "Done", "--", "echo", "hi"],
            environment: ["LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "hi\n")
        #expect(!result.stderr.contains("presenter-host"), "\(result.stderr)")
        #expect(result.screen == ["✔ Done"], "\(result.screen)")
    }

    @Test func listAndVersionNeedNoMore() throws {
        #expect(try host(limit: 6, ["--version"]).status == 0)
        #expect(try host(limit: 6, ["--list"]).status == 0)
    }
}
