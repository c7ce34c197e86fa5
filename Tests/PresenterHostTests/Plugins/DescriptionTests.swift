import Foundation
import Glibc
import Testing
@testable import HostPlugins
@testable import HostSystem

/// A plugin's description (ABI 1.3): read from the file's ELF notes, by the
/// rules of a descriptor, so that listing a plugin runs none of its code; a
/// presenter process refuses a file whose descriptors disagree with it.
@Suite struct DescriptionTests {
    /// Parses one segment of `notes` (DescriptionFuzz.note's framing).
    private func parse(_ notes: [UInt8]...) throws(PluginLoadFailure) -> PluginDescription? {
        try PluginDescription.parse(segments: [(notes.flatMap { $0 }, 4)], bigEndian: false, path: "/p/lib.so")
    }

    private func note(_ entries: String...) -> [UInt8] { DescriptionFuzz.note(entries) }

    private var abi: String { "abi=\(ABIVersion.host)" }

    // MARK: - The notes

    @Test func aNoteOfEveryFieldIsThePresenterItDescribes() throws {
        let description = try #require(
            try parse(
                note(
                    abi, "index=0", "id=me.dots", "name=Dots", "version=2.1", "description=Dots while it runs",
                    "author=Me", "license=MIT", "extends=mbhud", "capabilities=determinate, messages",
                    "hooks=create,destroy,render,show")))
        let plugin = try #require(try description.contents.first?.get())
        #expect(description.contents.count == 1)
        #expect(
            [plugin.id, plugin.name, plugin.version, plugin.description, plugin.author, plugin.license, plugin.extends]
                == ["me.dots", "Dots", "2.1", "Dots while it runs", "Me", "MIT", "mbhud"])
        #expect(plugin.capabilities == [.messages, .determinate])
        #expect(plugin.hookNames == ["create", "destroy", "show", "render"])
        #expect(plugin.abiVersion == ABIVersion.host)
        #expect(plugin.file == "/p/lib.so" && !plugin.isLoaded && !plugin.cached)
    }

    @Test func notesAreTakenByTheirIndexAndOtherOwnersNotesAreSkipped() throws {
        let gnu = DescriptionFuzz.note(["\u{4}"], name: "GNU", type: 3)
        let ours = DescriptionFuzz.note([abi, "index=0", "id=n", "name=N", "version=1"], type: 2)
        let description = try #require(
            try parse(gnu, ours, DescriptionFuzz.presenter(1, "second"), DescriptionFuzz.presenter(0, "first")))
        #expect(description.contents.map { (try? $0.get())?.id } == ["first", "second"])
        #expect(try parse(gnu, ours) == nil)
    }

    @Test(arguments: [
        ("name=Bad \u{1b}]2;title\u{7}", "name contains a control or bidirectional formatting character"),
        ("name=Bad \u{202e}eman", "name contains a control or bidirectional formatting character"),
        ("name=Bad \u{9b}2J", "name contains a control or bidirectional formatting character"),
        ("name=" + String(repeating: "n", count: 129), "name is longer than 128 bytes"),
    ])
    func aFieldThatBreaksTheDescriptorsRulesRefusesThatPresenter(field: String, reason: String) throws {
        let description = try #require(
            try parse(
                note(abi, "index=0", "id=bad.one", field, "version=1"), DescriptionFuzz.presenter(1, "good.one")))
        #expect(description.contents.count == 2)
        let failure = try #require(description.contents[0].failure)
        #expect(
            failure.description == "descriptor 0 ('bad.one'): \(reason); use printable text on one line"
                || failure.description == "descriptor 0 ('bad.one'): \(reason); shorten it")
        #expect((try? description.contents[1].get())?.id == "good.one")
    }

    @Test(arguments: ["id=$(id>/tmp/x)", "id=Upper", "id=a b", "id=" + String(repeating: "x", count: 65)])
    func anIdOutsideTheRuleIsRefused(id: String) throws {
        let description = try #require(try parse(note(abi, "index=0", id, "name=N", "version=1")))
        guard case .descriptor(nil, nil, let problem)? = description.contents[0].failure else {
            Issue.record("\(description.contents)")
            return
        }
        switch problem {
        case .invalidId, .tooLong: break
        default: Issue.record("\(problem)")
        }
    }

    @Test func anABIOtherThanTheHostsIsRefusedAsADescriptorsWouldBe() throws {
        let newer = try #require(try parse(note("abi=1.99", "index=0", "id=new", "name=N", "version=1")))
        #expect(
            newer.contents[0].failure
                == .descriptor(index: nil, id: "new", .abiNewerMinor(plugin: .init(major: 1, minor: 99))))
        let major = try #require(try parse(note("abi=2.0", "index=0", "id=two", "name=N", "version=1")))
        #expect(
            major.contents[0].failure
                == .descriptor(index: nil, id: "two", .abiMajor(plugin: .init(major: 2, minor: 0))))
    }

    @Test(arguments: [
        (DescriptionFuzz.presenter(0, "a") + DescriptionFuzz.presenter(0, "b"), "two notes have index 0"),
        (DescriptionFuzz.presenter(0, "a") + DescriptionFuzz.presenter(2, "c"), "note 1 has no index from 0 to 1"),
        (DescriptionFuzz.presenter(0, "a", extra: ["colour=red"]), "entry 5 of note 0 is not one of abi="),
        (DescriptionFuzz.presenter(0, "a", extra: ["name=again"]), "note 0 gives name twice"),
        (Array(DescriptionFuzz.presenter(0, "cut").dropLast(8)), "a note runs past the end of its segment"),
    ])
    func aNoteThatIsNotADescriptionRefusesTheFile(notes: [UInt8], reason: String) {
        #expect {
            _ = try parse(notes)
        } throws: { error in
            guard case .invalidDescription(let text) = error as? PluginLoadFailure else { return false }
            return text.hasPrefix(reason)
        }
    }

    @Test func moreThan256NotesRefuseTheFile() {
        let notes = (0...256).flatMap { DescriptionFuzz.presenter($0, "p\($0)") }
        #expect(throws: PluginLoadFailure.tooManyPresenters(limit: 256)) { try parse(notes) }
    }

    @Test func aNoteTextLargerThanAnyDescriptionRefusesTheFile() {
        let notes = DescriptionFuzz.presenter(0, "big", extra: ["description=" + String(repeating: "d", count: 5000)])
        #expect {
            _ = try parse(notes)
        } throws: { error in
            guard case .invalidDescription(let text) = error as? PluginLoadFailure else { return false }
            return text == "a description note holds more than 4096 bytes"
        }
    }

    // MARK: - Real files

    @Test func theBundledPresentersAndTheCFixtureDescribeThemselves() throws {
        for (file, id) in [
            (TestPaths.library("MBHud"), "mbhud"), (TestPaths.library("NetActivity"), "netactivity"),
            (TestPaths.library("AddBookmark"), "addbookmark"),
            (TestPaths.library("SwiftExamplePresenter"), "swift-example"),
            (try FixtureBuilder.library(.described), "fixture.described"),
        ] {
            let path = try PathName.realPath(file.path)
            let description = try #require(try PluginFile.describe(path, policy: .strict), "\(file.path)")
            #expect(description.contents.map { (try? $0.get())?.id } == [id])
        }
        #expect(try PluginFile.describe(try FixtureBuilder.library(.good).path, policy: .strict) == nil)
    }

    /// What a library holds, loaded in this process, against its description.
    @Test func loadingAFileComparesItsDescriptorsWithItsDescription() throws {
        let good = try FixtureBuilder.library(.described).path
        let plugins = try PluginLibrary.load(good, policy: .strict)
        #expect(plugins.count == 1 && plugins[0].isSuccess)
        let other = try FixtureBuilder.library(.describedDisagreeing).path
        #expect(
            throws: PluginLoadFailure.disagreesWithDescription(
                index: nil, id: "fixture.described-disagreeing", field: "name")
        ) {
            _ = try PluginLibrary.load(other, policy: .strict)
        }
    }

    /// Runs the built binary with a private home, cache and plugin folder.
    private func host(_ arguments: [String], folder: URL, environment: [String: String] = [:]) throws -> ProcessResult {
        let home = TestPaths.temporaryDirectory("home")
        return try ProcessRunner.host(
            ["--plugin-dir", folder.path] + arguments,
            environment: ["HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path].merging(
                environment
            ) { $1 })
    }

    @Test func listingADescribedFileRunsNoneOfItsCode() throws {
        // Its constructor aborts whatever loads it: a scan helper would
        // report "crashed while loading".
        let folder = try FixtureBuilder.directory([.describedAborting, .good])
        let list = try host(["--list"], folder: folder)
        #expect(list.status == 0)
        #expect(list.stdout.contains("fixture.described-aborting"), "\(list.stdout)")
        #expect(list.stderr.isEmpty, "\(list.stderr)")
        let verbose = try host(["--list", "-v", "--no-cache"], folder: folder)
        #expect(verbose.stdout.contains("    Loaded from: the file's description\n"), "\(verbose.stdout)")
        // Its code runs in the presenter process alone, where its crash is
        // the presenter's: the command's status stays exact.
        let run = try host(
            ["run", "--presenter", "fixture.described-aborting", "--", "sh", "-c", "exit 7"], folder: folder)
        #expect(run.status == 7, "\(run.stderr)")
    }

    @Test func aFileWhoseDescriptorsDisagreeIsRefusedWhereItsCodeRuns() throws {
        let folder = try FixtureBuilder.directory([.describedDisagreeing])
        let run = try host(
            ["run", "--presenter", "fixture.described-disagreeing", "--", "sh", "-c", "echo out; exit 4"],
            folder: folder)
        #expect(run.status == 4)
        #expect(run.stdout == "out\n")
        #expect(
            run.stderr.contains(
                "descriptor ('fixture.described-disagreeing') has another name than the file's description says"),
            "\(run.stderr)")
        let check = try host(["check", try FixtureBuilder.library(.describedDisagreeing).path], folder: folder)
        #expect(check.status != 0)
        #expect(check.stdout.contains("  FAIL  description: "), "\(check.stdout)")
        #expect(check.stdout.contains("give name the same value in the description and in the descriptor"))
    }

    @Test func checkWarnsAboutAFileWithoutADescriptionAndPassesOneWithIt() throws {
        let folder = try FixtureBuilder.directory([])
        let legacy = try host(["check", try FixtureBuilder.library(.good).path], folder: folder)
        #expect(legacy.stdout.contains("  WARN  description: it has no description"), "\(legacy.stdout)")
        #expect(legacy.stdout.contains("PRESENTER_DESCRIBE("))
        let described = try host(["check", try FixtureBuilder.library(.described).path], folder: folder)
        #expect(
            described.stdout.contains(
                "  PASS  description: read from the file without loading it, and the descriptors agree"),
            "\(described.stdout)")
    }

    /// `run` scans a file that does not describe itself only when the files
    /// known without it do not give the presenter: a constructor that hangs
    /// in the user's folder never holds the command's start.
    @Test func runDoesNotScanWhatItDoesNotNeed() throws {
        let folder = try FixtureBuilder.directory([.constructorHang, .good])
        // A scan of the hanging file would take this long.
        let slow = ["PRESENTER_SCAN_TIMEOUT_MS": "30000"]
        let start = MonotonicTime.seconds()
        let run = try host(
            ["run", "--presenter", "mbhud", "--", "sh", "-c", "exit 3"], folder: folder, environment: slow)
        #expect(run.status == 3)
        #expect(MonotonicTime.seconds() - start < 15, "run waited for a scan it does not need")
        // The presenter the command names is found by scanning, when
        // nothing known has it.
        let fast = ["PRESENTER_SCAN_TIMEOUT_MS": "2000"]
        let good = try host(["run", "--presenter", "fixture.good", "--", "true"], folder: folder, environment: fast)
        #expect(good.status == 0, "\(good.stderr)")  // an unknown presenter is a usage error (64)
        let missing = try host(["run", "--presenter", "fixture.none", "--", "true"], folder: folder, environment: fast)
        #expect(missing.status == 64, "\(missing.stderr)")
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
    fileprivate var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
