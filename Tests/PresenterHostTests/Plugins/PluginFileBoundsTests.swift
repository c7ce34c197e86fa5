import Foundation
import Glibc
import Testing

/// A plugin folder's sizes are bounded (issue 37), through the real binary:
/// a plugin file larger than 256 MiB is refused with its reason before it
/// is copied (a 2 GB sparse file was copied whole into sealed memory: 2 GB
/// of shared memory, and seconds before the command started), and a
/// folder of thousands of long names gives the right answer quickly,
/// with no helper started for a file already known not to be ELF.
@Suite("every size is bounded: plugin files")
struct PluginFileBoundsTests {
    /// A folder holding the good fixture grown (sparse) to 2 GiB.
    static func hugePlugin() throws -> URL {
        let folder = TestPaths.temporaryDirectory("huge-plugin")
        let huge = folder.appendingPathComponent("libhuge.so")
        try FileManager.default.copyItem(at: FixtureBuilder.library(.good), to: huge)
        #expect(truncate(huge.path, 2 << 30) == 0)
        return folder
    }

    @Test func aPluginFileOver256MiBIsRefusedWithItsReason() throws {
        let folder = try Self.hugePlugin()
        let list = try ProcessRunner.host(["--plugin-dir", folder.path, "--list"])
        #expect(list.status == 0)
        #expect(
            list.stderr.contains(
                "\(folder.path)/libhuge.so: is 2147483648 bytes, larger than the 256 MiB a plugin file may be; strip it (strip --strip-debug) or remove it from the plugin directory"
            ), "\(list.stderr)")
        #expect(!list.stdout.contains("fixture.good"))
    }

    /// Choosing it fails at once, as for any refused file (it was copied
    /// whole into a memfd first: 11 s here, 2 GB of shared memory).
    @Test func runningItsPresenterFailsAtOnce() throws {
        let folder = try Self.hugePlugin()
        let run = try MeasuredRun(["--plugin-dir", folder.path, "run", "--presenter", "fixture.good", "--", "true"])
        #expect(run.status == 64)
        #expect(run.seconds < TestTime.scaled(5))
        #expect(String(decoding: run.output, as: UTF8.self).contains("no presenter 'fixture.good'"))
    }

    /// 8,000 files with 200-character names that are text, and one good
    /// plugin: each text file is refused as text by the host's own check
    /// (no helper is started for it: 8,000 helpers would take minutes),
    /// and the good one is scanned and listed.
    @Test func thousandsOfLongNamesGiveTheRightAnswerQuickly() throws {
        let folder = TestPaths.temporaryDirectory("many-names")
        try FileManager.default.copyItem(
            at: FixtureBuilder.library(.good), to: folder.appendingPathComponent("libgood.so"))
        let padding = String(repeating: "n", count: 200)
        for index in 0..<8000 {
            let name = folder.appendingPathComponent("lib\(index)-\(padding).so").path
            #expect(FileManager.default.createFile(atPath: name, contents: Data("not a plugin\n".utf8)))
        }
        let started = Date()
        let list = try ProcessRunner.host(["--plugin-dir", folder.path, "--list"])
        let seconds = Date().timeIntervalSince(started)
        #expect(list.status == 0)
        #expect(seconds < TestTime.scaled(30))
        #expect(list.stdout.contains("fixture.good") && list.stdout.contains("\(folder.path)/libgood.so"))
        let refusals = list.stderr.split(separator: "\n")
        #expect(refusals.count == 8000, "\(refusals.prefix(3))")
        #expect(
            refusals.allSatisfy {
                $0.hasSuffix(".so: is a text file, not an ELF shared library; remove it from the plugin directory")
            })
    }
}
