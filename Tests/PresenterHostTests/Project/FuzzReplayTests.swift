import Foundation
import Testing
@testable import HostRuntime

/// Every input kept for a fuzz target (its minimised corpus and the inputs
/// that once found a bug), replayed through the very function the fuzzer
/// calls, with the oracles on: a fixed bug that comes back fails here, in
/// the ordinary test run, not only under scripts/fuzz.
@Suite("Fuzz corpus replay")
struct FuzzReplayTests {
    static let root = TestPaths.packageRoot.appendingPathComponent("Tests/PresenterHostTests/Fixtures/fuzz")

    @Test("Every kept input of the target runs clean", arguments: FuzzTarget.allCases)
    func replay(target: FuzzTarget) throws {
        let directory = Self.root.appendingPathComponent(target.rawValue)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        // An empty folder would make this test pass without testing anything.
        #expect(names.count >= 2, "Fixtures/fuzz/\(target.rawValue) holds \(names.count) inputs")
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            target.run(bytes, oracles: true)
        }
    }

    /// The registry-cache corpus starts from real cache files (made by
    /// `presenter-host --list` under a fresh XDG_CACHE_HOME): a format
    /// change that makes them unreadable leaves the fuzzer nothing past the
    /// first line to start from; make them anew then.
    @Test func theRealRegistryCachesStillRead() throws {
        let directory = Self.root.appendingPathComponent(FuzzTarget.registryCache.rawValue)
        for name in ["real-all", "real-broken", "real-bundled", "real-mixed", "regression-json-key-order"] {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            #expect(RegistryCacheFuzz.reads(bytes), "\(name) is refused")
        }
    }

    @Test("Every generated seed runs clean", arguments: FuzzTarget.allCases)
    func seeds(target: FuzzTarget) {
        let seeds = target.seeds
        #expect(!seeds.isEmpty)
        for seed in seeds { target.run(seed.bytes, oracles: true) }
    }
}
