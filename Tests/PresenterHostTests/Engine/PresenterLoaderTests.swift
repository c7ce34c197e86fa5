import Foundation
import HostPlugins
import PresenterABI
import PresenterHostTesting
import Testing
@testable import HostEngine

/// The in-process engine's loader: a resolved chain (descriptions) becomes
/// loaded presenters at attach, each from its file by its descriptor's
/// index, refused there unless the id is the one resolved.
@Suite struct PresenterLoaderTests {
    private static let geometry = ViewGeometry(cols: 40, rows: 3, flags: 0)

    /// The registry of `fixtures`, in a folder of their own.
    private func registry(_ fixtures: [Fixture]) throws -> PresenterRegistry {
        let directory = try FixtureBuilder.directory(fixtures)
        return RegistryPipeline().load([SearchPathEntry(path: directory.path, origin: .flag)])
    }

    /// The failure `plugin`'s loading throws, or nil when it loads.
    private func failure(loading plugin: PresenterPlugin) -> PresenterFailure? {
        do throws(PresenterFailure) {
            _ = try PresenterLoader.files(policy: .strict).load(plugin)
            return nil
        } catch {
            return error
        }
    }

    @Test func aResolvedChainIsLoadedByIndexAndKeepsItsDescription() throws {
        let chain = try registry([.twoPresenters]).resolve("fixture.derived")
        #expect(chain.plugins.map(\.index) == [1, 0])
        let loader = PresenterLoader.files(policy: .strict)
        for plugin in chain.plugins {
            let loaded = try loader.load(plugin)
            #expect(loaded.plugin == plugin)
            #expect(loaded.hooks.presentNames == plugin.hookNames)
            let descriptor = try #require(loaded.descriptor?.pointer.pointee)
            #expect(String(cString: descriptor.id) == plugin.id)
        }
        let engine = LocalPresenterEngine(
            options: [:], clock: ManualClock(), geometry: Self.geometry, tracing: false, loader: loader,
            isEngineThread: { true })
        try engine.attach(1, chain: chain, elements: [])
        engine.detach(1)
    }

    @Test func aPresenterItsFileNoLongerHoldsWhereResolvedCannotStart() throws {
        let found = try #require(try registry([.good]).plugin(id: "fixture.good"))
        for (id, index) in [("fixture.other", found.index), (found.id, found.index + 1)] {
            let moved = PresenterPlugin(
                id: id, name: found.name, version: found.version, description: found.description,
                author: found.author, license: found.license, extends: found.extends,
                capabilities: found.capabilities, abiVersion: found.abiVersion, file: found.file, path: found.path,
                index: index, hookNames: found.hookNames, source: .cache)
            #expect(
                failure(loading: moved)
                    == PresenterFailure(
                        presenterId: id, hook: nil,
                        reason: .couldNotStart(.presenterMissing(path: found.path, id: id))))
        }
    }

    @Test func aFileThatNoLongerLoadsCannotStartAndAttachesNothing() throws {
        let directory = TestPaths.temporaryDirectory("loader")
        let copy = directory.appendingPathComponent(Fixture.good.fileName)
        try FileManager.default.copyItem(at: try FixtureBuilder.library(.good), to: copy)
        let registry = RegistryPipeline().load([SearchPathEntry(path: directory.path, origin: .flag)])
        let plugin = try #require(registry.plugin(id: "fixture.good"))
        try FileManager.default.removeItem(at: copy)

        let failure = try #require(self.failure(loading: plugin))
        #expect(failure.presenterId == "fixture.good" && failure.hook == nil)
        guard case .couldNotStart(.file(let error)) = failure.reason else {
            Issue.record("\(failure)")
            return
        }
        #expect(error.path == copy.path, "\(error)")
        let engine = LocalPresenterEngine(
            options: [:], clock: ManualClock(), geometry: Self.geometry, tracing: false,
            loader: .files(policy: .strict),
            isEngineThread: { true })
        let chain = try #require(PresenterChain([plugin]))
        #expect(throws: failure) { try engine.attach(1, chain: chain, elements: []) }
        #expect(engine.frameRequests.isEmpty)
    }
}
