import Foundation
import Testing

/// Examples/swift-package: a presenter as its own SwiftPM package, outside
/// this one, depending on the SDK by path, as a third party writes it. Its
/// source is docs/writing-a-presenter.md's smallest presenter word for word;
/// it builds with `swift build`, passes `check` and is listed.
@Suite struct SwiftPackageExampleTests {
    private static let package = TestPaths.packageRoot.appendingPathComponent("Examples/swift-package")

    @Test func theSourceIsTheGuidesSmallestPresenter() throws {
        let guide = try String(
            contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/writing-a-presenter.md"), encoding: .utf8)
        let code = try #require(
            guide.components(separatedBy: "## The smallest presenter\n\n```swift\n").dropFirst().first?
                .components(separatedBy: "```").first)
        let source = try String(
            contentsOf: Self.package.appendingPathComponent("Sources/DotPresenter/DotPresenter.swift"),
            encoding: .utf8)
        #expect(source.hasSuffix(code))
        // And its .presenters file, which makes its description and PresenterInfo.dot.
        let description = try #require(
            guide.components(separatedBy: "`dot.presenters`:\n\n```ini\n").dropFirst().first?
                .components(separatedBy: "```").first)
        let file = try String(
            contentsOf: Self.package.appendingPathComponent("Sources/DotPresenter/dot.presenters"), encoding: .utf8)
        #expect(file == description)
    }

    @Test func itBuildsOnItsOwnPassesCheckAndIsListed() throws {
        // A scratch path of its own (kept between runs, so a second build is quick).
        let scratch = TestPaths.packageRoot.appendingPathComponent(".build/swift-package-example")
        let build = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["swift", "build", "--package-path", Self.package.path, "--scratch-path", scratch.path])
        #expect(build.status == 0, "\(build.stdout)\(build.stderr)")
        let products = scratch.appendingPathComponent("debug")
        let library = products.appendingPathComponent("libDotPresenter.so")
        // A budget of its own: under a loaded parallel test run a hook can
        // take more than half the usual 250 ms, and "budget" would WARN for
        // the machine, not the presenter (the budget check has its own tests).
        let check = try ProcessRunner.host(["check", "--hook-timeout", "10", library.path])
        #expect(check.status == 0, "\(check.stdout)")
        #expect(check.stdout.hasSuffix("1 presenter checked: 16 passed, 0 failed, 0 warned\n"), "\(check.stdout)")
        let list = try ProcessRunner.host(["--plugin-dir", products.path, "--list"])
        #expect(list.stdout.contains("dot  ") && list.stdout.contains(library.path), "\(list.stdout)\(list.stderr)")
    }
}
