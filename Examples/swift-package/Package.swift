// swift-tools-version:6.0
// A presenter as its own SwiftPM package, outside presenter-host's, as a
// third party would write it (docs/writing-a-presenter.md). It depends on
// the SDK by path: this repository, two folders up. `swift build` here
// makes libDotPresenter.so; SwiftPackageExampleTests builds it and checks it.
import Foundation
import PackageDescription

// A path dependency is known by its folder's name, whatever the clone is called.
let host = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "dot-presenter",
    products: [
        // type: .dynamic makes libDotPresenter.so
        .library(name: "DotPresenter", type: .dynamic, targets: ["DotPresenter"])
    ],
    dependencies: [
        .package(path: host.path)
    ],
    targets: [
        .target(
            name: "DotPresenter",
            dependencies: [
                .product(name: "PresenterSDK", package: host.lastPathComponent.lowercased())
            ],
            // dot.presenters becomes the library's description notes (read
            // by presenter-host without loading it) and PresenterInfo.dot.
            plugins: [
                .plugin(name: "PresenterDescription", package: host.lastPathComponent.lowercased())
            ])
    ],
    swiftLanguageModes: [.v6]
)
