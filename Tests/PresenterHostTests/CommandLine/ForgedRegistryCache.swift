import Foundation
import Testing

/// A registry cache holding presenter records a test chose, as a forged
/// scan report or anyone who can write the user's cache leaves it: the
/// host reads them back at every later start, with no plugin code run.
///
/// Made the honest way first (`--list` writes the cache for a plugin folder
/// holding the good fixture), then the good fixture's record is replaced
/// by `presenters` and the checksum written again. A cache reader that
/// refuses such records (issue 30: the file is then scanned again) shows
/// none of them, which is as good: ``listedFromCache(_:)`` tells the tests
/// which of the two they see.
struct ForgedRegistryCache {
    /// One presenter record: every text as the forger wrote it.
    struct Presenter {
        var id: String
        var name = "Forged"
        var version = "1.0.0"
        var description: String? = nil
        var author: String? = nil
        var license: String? = nil
        var extends: String? = nil
    }

    /// The plugin folder: the good fixture, whose cache entry is forged.
    let plugins: URL
    let home: URL
    let cacheHome: URL

    /// The plugin options that find the forged entry (the cache is keyed on
    /// the search path).
    var options: [String] { ["--plugin-dir", plugins.path] }

    /// The environment every command of the test runs with: the same home
    /// and cache home (the cache's key names the user's plugin folder).
    var environment: [String: String] {
        [
            "HOME": home.path, "XDG_DATA_HOME": home.appendingPathComponent("share").path,
            "XDG_CACHE_HOME": cacheHome.path,
        ]
    }

    init(_ presenters: [Presenter]) throws {
        plugins = try FixtureBuilder.directory([.good])
        home = TestPaths.temporaryDirectory("forged-home")
        cacheHome = TestPaths.temporaryDirectory("forged-cache")
        let listed = try ProcessRunner.host(["--plugin-dir", plugins.path, "--list"], environment: environment)
        #expect(listed.status == 0, "\(listed.stderr)")
        let file = cacheHome.appendingPathComponent("presenter-host/registry.cache")
        let whole = try String(contentsOf: file, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false
        )
        .map(String.init)
        // The magic and version as this host writes them, then the checksum.
        let first = try #require(whole.first)
        let magic = String(first[...(try #require(first.lastIndex(of: " ")))])
        let lines = Array(whole.dropFirst())
        let good = try #require(lines.firstIndex { $0.hasPrefix("P\t0\tfixture.good\t") }, "\(lines)")
        // The record's fields after the texts: capabilities, ABI, hooks.
        let tail = lines[good].split(separator: "\t", omittingEmptySubsequences: false).suffix(3).joined(
            separator: "\t")
        let absent = "\u{1}"
        let records = presenters.enumerated().map { index, presenter in
            let texts = [
                presenter.id, presenter.name, presenter.version, presenter.description ?? absent,
                presenter.author ?? absent, presenter.license ?? absent, presenter.extends ?? absent,
            ]
            return (["P", String(index)] + texts).joined(separator: "\t") + "\t" + tail
        }
        let body = Array((Array(lines[..<good]) + records + Array(lines[(good + 1)...])).joined(separator: "\n").utf8)
        // FNV-1a 64 of the body, as RegistryCacheFormat checks it.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let digits = String(hash, radix: 16)
        let header = magic + String(repeating: "0", count: 16 - digits.count) + digits + "\n"
        // Written in place: the file keeps its owner and mode, which the reader checks.
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(header.utf8) + Data(body))
        try handle.close()
    }

    /// True when `listing` (what `--list` printed) shows the forged
    /// presenters; false when the host refused the forged entry and scanned
    /// the file again (it then lists the good fixture).
    func listedFromCache(_ listing: String) -> Bool {
        !listing.contains("fixture.good")
    }
}
