import Testing
@testable import HostCommandLine
@testable import HostPlugins

/// A loader's failure is data: what is wrong (`reason`) and what whoever
/// installed the file should do (`advice`), joined only where printed.
/// `check` shows the reason with a fix of its own, taken from the failure,
/// not cut out of its text at a `"; "`, which a reason may hold itself.
@Suite struct CheckAdviceTests {
    /// What `--list` prints is the reason, then the advice; the reason
    /// holds none of the advice.
    @Test(arguments: [
        PluginLoadFailure.notELF(looksLikeText: true), .truncated("truncated: the file ends inside its ELF header"),
        .descriptor(index: 1, id: "x", .abiMajor(plugin: ABIVersion(major: 2, minor: 0))),
        .file(.danglingLink(target: "a; b")), .unscanned, .disagreesWithDescription(index: 0, id: "x", field: "name"),
    ])
    func aFailureIsItsReasonThenItsAdvice(failure: PluginLoadFailure) throws {
        let advice = try #require(failure.advice)
        #expect(failure.description == "\(failure.reason); \(advice)")
        #expect(!failure.reason.contains(advice))
        #expect(CheckAdvice.loading(failure, file: "/p/lib.so").reason == failure.reason)
    }

    /// A failure whose reason holds a `"; "` and that has no advice of its
    /// own (the layers a sandbox lacks, a description's words) is shown
    /// whole by `check`: cut at its last `"; "`, it lost its end.
    @Test(arguments: [
        PluginLoadFailure.sandboxIncomplete("no seccomp filter; no Landlock"),
        .invalidDescription("a note runs past the end of its segment; the file is corrupt, rebuild it"),
    ])
    func aReasonThatHoldsASemicolonIsShownWhole(failure: PluginLoadFailure) {
        #expect(failure.advice == nil)
        #expect(CheckAdvice.loading(failure, file: "/p/lib.so").reason == failure.description)
    }

    /// A file discovery refused: the fix is the failure's advice, or the
    /// owner and mode rules' own command.
    @Test func aDiscoveryFailuresFixIsItsAdvice() {
        let dangling = DiscoveryFailure.danglingLink(target: "gone; really")
        let advice = CheckAdvice.loading(.file(dangling), file: "/p/lib.so")
        #expect(advice == ("is a dangling symbolic link to 'gone; really'", "fix or remove the link"))
    }
}
