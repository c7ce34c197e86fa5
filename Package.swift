// swift-tools-version:6.0
import PackageDescription

// The host, its C ABI, the Swift SDK for plugin authors, and the three bundled
// presenter plugins, each its own dynamic library (libMBHud.so, ...).
let package = Package(
    name: "presenter-host",
    products: [
        .executable(name: "presenter-host", targets: ["presenter-host"]),
        // The HTTP GET of add-bookmark's get-title, spawned by presenter-host.
        .executable(name: "presenter-host-fetch", targets: ["presenter-host-fetch"]),
        .library(name: "PresenterHost", targets: ["PresenterHost"]),
        .library(name: "PresenterSDK", targets: ["PresenterSDK"]),
        .library(name: "PresenterHostTesting", targets: ["PresenterHostTesting"]),
        .library(name: "MBHud", type: .dynamic, targets: ["MBHud"]),
        .library(name: "NetActivity", type: .dynamic, targets: ["NetActivity"]),
        .library(name: "AddBookmark", type: .dynamic, targets: ["AddBookmark"]),
        // A third-party-style presenter written in Swift; also a test fixture.
        .library(name: "SwiftExamplePresenter", type: .dynamic, targets: ["SwiftExamplePresenter"]),
    ],
    targets: [
        .target(name: "PresenterABI"),
        // Linux calls Swift's Glibc module does not import (pipe2, closefrom
        // in posix_spawn, PR_SET_PDEATHSIG...): the host's own, not the ABI.
        .target(name: "SystemShims"),
        // libseccomp, the library the processes that run plugin code build
        // their seccomp filter with (SECURITY.md); scripts/setup installs it.
        .systemLibrary(name: "CSeccomp", pkgConfig: "libseccomp", providers: [.apt(["libseccomp-dev"])]),
        .target(name: "PresenterSDK", dependencies: ["PresenterABI"]),
        // One module still, from the folders its layers will be modules of
        // (the other targets' folders beside them excluded).
        .target(
            name: "PresenterHost", dependencies: ["PresenterABI", "SystemShims", "CSeccomp"], path: "Sources",
            exclude: [
                "PresenterHost", "PresenterABI", "SystemShims", "CSeccomp", "PresenterSDK", "PresenterHostTesting",
                "presenter-host", "presenter-host-fetch",
            ],
            sources: [
                "HostSystem", "HostText", "HostPlugins", "HostEngine", "HostRuntime", "HostBookmarks",
                "HostCommandLine",
            ]),
        .executableTarget(name: "presenter-host", dependencies: ["PresenterHost"]),
        // Test doubles (TestBackend, ManualClock's advance) for this package's
        // tests and for anyone testing a view on the runtime; never linked
        // into the host.
        .target(name: "PresenterHostTesting", dependencies: ["PresenterHost"]),
        // The only target that imports FoundationNetworking (libcurl and some
        // 30 more libraries, which would nearly double presenter-host's
        // start-up): presenter-host spawns it per fetch.
        .executableTarget(name: "presenter-host-fetch", dependencies: ["SystemShims"]),
        .target(name: "MBHud", dependencies: ["PresenterSDK"], path: "Plugins/MBHud"),
        .target(name: "NetActivity", dependencies: ["PresenterSDK"], path: "Plugins/NetActivity"),
        .target(name: "AddBookmark", dependencies: ["PresenterSDK"], path: "Plugins/AddBookmark"),
        .target(
            name: "SwiftExamplePresenter", dependencies: ["PresenterSDK"],
            path: "Examples/SwiftExamplePresenter"),
        .testTarget(
            name: "PresenterHostTests",
            dependencies: ["PresenterHost", "PresenterHostTesting", "PresenterABI", "SystemShims"],
            // Read where they are (TestPaths.packageRoot), never copied into
            // the test bundle: the fuzz corpora alone are some 29 MB in 7,000
            // files, which every test build copied again.
            exclude: ["Fixtures"]
        ),
    ],
    // Swift 6 mode, complete concurrency checking, in every target: each
    // `@unchecked Sendable` and `nonisolated(unsafe)` says why it is safe.
    swiftLanguageModes: [.v6]
)
