import Testing
@testable import HostPlugins

/// Which valid presenters are used (ids, shadowing, extension chains), on
/// presenters built in memory.
@Suite struct LoaderResolutionTests {
    private func candidate(_ id: String, extends: String? = nil, in path: String, index: Int = 0)
        -> PresenterResolution.Candidate
    {
        .init(
            plugin: PresenterPlugin(
                id: id, name: id, version: "1", description: nil, author: nil, license: nil,
                extends: extends, capabilities: [], abiVersion: .host, file: path, hookNames: [], source: .loaded),
            index: index)
    }

    @Test func theFirstUsablePresenterWithAnIdWins() {
        let resolution = PresenterResolution(
            [
                candidate("hud", extends: "gone", in: "/flag/libfake.so"),
                candidate("hud", in: "/bundled/libhud.so"),
                candidate("child", extends: "hud", in: "/bundled/libchild.so"),
                candidate("hud", in: "/later/libhud.so"),
            ], refusedIds: [:])
        #expect(resolution.plugins.map(\.path) == ["/bundled/libhud.so", "/bundled/libchild.so"])
        #expect(
            resolution.refusals == [
                0: .baseNotFound(id: "hud", base: "gone"),
                3: .shadowed(id: "hud", by: "/bundled/libhud.so"),
            ])
    }

    @Test func aCycleGivesWayToALaterPresenterWithTheSameId() {
        let resolution = PresenterResolution(
            [
                candidate("a", extends: "b", in: "/one/liba.so"),
                candidate("b", extends: "a", in: "/one/libb.so"),
                candidate("a", in: "/two/liba.so"),
            ], refusedIds: [:])
        #expect(resolution.plugins.map(\.path) == ["/two/liba.so"])
        #expect(
            resolution.refusals == [
                0: .extensionCycle(id: "a", cycle: ["a", "b", "a"]),
                1: .extensionCycle(id: "b", cycle: ["b", "a", "b"]),
            ])
    }

    @Test func aPresenterAboveABrokenChainIsToldWhichFileToFix() {
        let resolution = PresenterResolution(
            [
                candidate("top", extends: "middle", in: "/d/libtop.so"),
                candidate("middle", extends: "loop", in: "/d/libmiddle.so"),
                candidate("loop", extends: "loop", in: "/d/libloop.so"),
                candidate("kid", extends: "refused", in: "/d/libkid.so"),
            ], refusedIds: ["refused": "/d/librefused.so"])
        #expect(resolution.plugins.isEmpty)
        #expect(
            resolution.refusals == [
                0: .baseUnavailable(id: "top", base: "middle", path: "/d/libmiddle.so"),
                1: .baseUnavailable(id: "middle", base: "loop", path: "/d/libloop.so"),
                2: .extensionCycle(id: "loop", cycle: ["loop", "loop"]),
                3: .baseUnavailable(id: "kid", base: "refused", path: "/d/librefused.so"),
            ])
    }

    @Test func aRepeatedIdInOneFileNamesBothDescriptors() {
        let resolution = PresenterResolution(
            [
                candidate("x", in: "/d/libx.so", index: 0),
                candidate("y", in: "/d/libx.so", index: 1),
                candidate("x", in: "/d/libx.so", index: 2),
            ], refusedIds: [:])
        #expect(resolution.plugins.map(\.id) == ["x", "y"])
        #expect(resolution.refusals == [2: .duplicateInLibrary(id: "x", index: 2, first: 0)])
    }
}
