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
        #expect(plugin.file == "/p/lib.so" && plugin.source == .description && !plugin.cached)
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

    /// A segment aligned to 8 (GNU property notes, which GCC writes with
    /// -fcf-protection, and every arm64 build) follows the gABI's layout:
    /// the text at the next multiple of 8 after the name.
    @Test func notesInASegmentAlignedTo8AreReadByTheGABIsLayout() throws {
        let property = DescriptionFuzz.note(
            ["\u{2}\u{0}\u{0}\u{c0}\u{4}\u{0}\u{0}\u{0}\u{3}\u{0}\u{0}\u{0}"], name: "GNU", type: 5, alignment: 8)
        #expect(property.count == 32)  // as GCC writes it: 12 + "GNU\0" + 16
        #expect(try PluginDescription.parse(segments: [(property, 8)], bigEndian: false, path: "/p/lib.so") == nil)
        let ours = DescriptionFuzz.note([abi, "index=0", "id=eight", "name=N", "version=1"], alignment: 8)
        let description = try #require(
            try PluginDescription.parse(segments: [(property + ours, 8)], bigEndian: false, path: "/p/lib.so"))
        #expect((try? description.contents[0].get())?.id == "eight")
    }

    /// A note of another owner that does not fit its segment ends what can
    /// be read of it, and says nothing of the file's description.
    @Test func anotherOwnersBrokenNoteIsNotARefusal() throws {
        let broken = Array(DescriptionFuzz.note(["\u{4}\u{4}\u{4}\u{4}"], name: "GNU", type: 3).dropLast(2))
        #expect(try parse(broken) == nil)
    }

    /// The system's own libraries read as files without a description,
    /// whatever notes they hold (Debian's libm has a GNU property note in a
    /// segment aligned to 8, which the first reader took for a corrupt file).
    @Test func theSystemsLibrariesHaveNoDescriptionAndNoError() throws {
        var found = 0
        for path in ["/lib/x86_64-linux-gnu/libm.so.6", "/lib/aarch64-linux-gnu/libm.so.6", "/usr/lib64/libm.so.6"]
        where FileManager.default.fileExists(atPath: path) {
            let real = try PathName.realPath(path)
            #expect(try PluginFile.describe(real, policy: .strict) == nil, "\(path)")
            found += 1
        }
        #expect(found >= 1, "no libm.so.6 where this test looks")
    }

    @Test func aDescribedFileBuiltWithCFProtectionIsRead() throws {
        let path = try FixtureBuilder.library(.describedHardened).path
        let description = try #require(try PluginFile.describe(path, policy: .strict))
        #expect(description.contents.map { (try? $0.get())?.id } == ["fixture.described-hardened"])
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
            (TestPaths.library("AddBookmark"), "addbookmark"), (TestPaths.library("Line"), "line"),
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
    /// `inTerminal` (stderr): where `run` runs its presenter (plain mode runs none).
    private func host(
        _ arguments: [String], folder: URL, environment: [String: String] = [:], inTerminal: Bool = false
    ) throws -> ProcessResult {
        let home = TestPaths.temporaryDirectory("home")
        let environment = ["HOME": home.path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path].merging(
            environment
        ) { $1 }
        if inTerminal {
            return try ProcessRunner.hostInTerminal(
                ["--plugin-dir", folder.path] + arguments, environment: environment)
        }
        return try ProcessRunner.host(["--plugin-dir", folder.path] + arguments, environment: environment)
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
            ["run", "--presenter", "fixture.described-aborting", "--", "sh", "-c", "exit 7"], folder: folder,
            inTerminal: true)
        #expect(run.status == 7, "\(run.stderr)")
    }

    @Test func aFileWhoseDescriptorsDisagreeIsRefusedWhereItsCodeRuns() throws {
        let folder = try FixtureBuilder.directory([.describedDisagreeing])
        let run = try host(
            ["run", "--presenter", "fixture.described-disagreeing", "--", "sh", "-c", "echo out; exit 4"],
            folder: folder, inTerminal: true)
        #expect(run.status == 4)
        #expect(run.stdout == "out\n")
        #expect(
            run.stderr.contains(
                "descriptor ('fixture.described-disagreeing') has another name than the file's description says"),
            "\(run.stderr)")
        let check = try host(["check", try FixtureBuilder.library(.describedDisagreeing).path], folder: folder)
        #expect(check.status != 0)
        #expect(check.stdout.contains("  FAIL  description: "), "\(check.stdout)")
        #expect(check.stdout.contains("has another name than the file's description says"), "\(check.stdout)")
        #expect(check.stdout.contains("give every field the same value in the description and in the descriptor"))
    }

    @Test func checkWarnsAboutAFileWithoutADescriptionAndPassesOneWithIt() throws {
        let folder = try FixtureBuilder.directory([])
        let legacy = try host(["check", try FixtureBuilder.library(.good).path], folder: folder)
        #expect(legacy.stdout.contains("  WARN  description: it has no description"), "\(legacy.stdout)")
        #expect(legacy.stdout.contains("PRESENTER_DESCRIBE("))
        let described = try host(["check", try FixtureBuilder.library(.described).path], folder: folder)
        #expect(
            described.stdout.contains(
                "  PASS  description: read from the file without loading it; loaded, its descriptors agree"),
            "\(described.stdout)")
    }

    /// `run` scans a file that does not describe itself only when the files
    /// known without it do not give the presenter, and only until they do:
    /// a constructor that hangs in the user's folder never holds the
    /// command's start.
    @Test func runDoesNotScanWhatItDoesNotNeed() throws {
        let folder = try FixtureBuilder.directory([.constructorHang, .good])
        // A scan of the hanging file would take this long.
        let slow = ["PRESENTER_SCAN_TIMEOUT_MS": "30000"]
        let start = MonotonicTime.seconds()
        let run = try host(
            ["run", "-v", "--presenter", "mbhud", "--", "sh", "-c", "exit 3"], folder: folder, environment: slow)
        #expect(run.status == 3)
        #expect(MonotonicTime.seconds() - start < 15, "run waited for a scan it does not need")
        // -v says which files it left out.
        #expect(
            run.stderr.contains(
                "presenter-host: 2 plugin files without a description not scanned (not needed for 'mbhud'; presenter-host --list scans them): "
            ), "\(run.stderr)")
        // When the presenter is in a file only a scan tells about, the scan
        // ends as soon as it has it: the hanging neighbour is not waited for.
        let needed = MonotonicTime.seconds()
        let scanned = try host(
            ["run", "--presenter", "fixture.good", "--", "sh", "-c", "exit 4"], folder: folder, environment: slow)
        #expect(scanned.status == 4, "\(scanned.stderr)")
        #expect(MonotonicTime.seconds() - needed < 15, "run waited for a scan past the presenter it needs")
        // A presenter no file has is a usage error (64), once every file was scanned.
        let fast = ["PRESENTER_SCAN_TIMEOUT_MS": "2000"]
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
