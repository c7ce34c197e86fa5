// swift-tools-version:6.0
import PackageDescription

// The host, its C ABI, the Swift SDK for plugin authors, and the four bundled
// presenter plugins, each its own dynamic library (libMBHud.so, ...).
let package = Package(
    name: "presenter-host",
    products: [
        .executable(name: "presenter-host", targets: ["presenter-host"]),
        // The processes that run plugin code (the presenter process, the
        // scan helper, `--in-process`), spawned or exec'd by presenter-host.
        .executable(name: "presenter-host-plugins", targets: ["presenter-host-plugins"]),
        // The HTTP GET of add-bookmark's get-title, spawned by presenter-host.
        .executable(name: "presenter-host-fetch", targets: ["presenter-host-fetch"]),
        .library(name: "PresenterHost", targets: ["PresenterHost"]),
        .library(name: "PresenterSDK", targets: ["PresenterSDK"]),
        .library(name: "PresenterHostTesting", targets: ["PresenterHostTesting"]),
        .library(name: "MBHud", type: .dynamic, targets: ["MBHud"]),
        .library(name: "NetActivity", type: .dynamic, targets: ["NetActivity"]),
        .library(name: "AddBookmark", type: .dynamic, targets: ["AddBookmark"]),
        // The one-row presenter: the spinner and the message at the cursor.
        .library(name: "Line", type: .dynamic, targets: ["Line"]),
        // The SDK's build plugin: a .presenters file becomes the library's
        // description notes and its PresenterInfo values.
        .plugin(name: "PresenterDescription", targets: ["PresenterDescription"]),
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
        // The tool of PresenterDescription: reads a .presenters file, writes Swift.
        .executableTarget(name: "presenter-describe", dependencies: ["PresenterABI", "HostText"]),
        .plugin(
            name: "PresenterDescription", capability: .buildTool(), dependencies: ["presenter-describe"],
            path: "Sources/PresenterDescription"),
        // The host, one module per layer, lowest first: each depends only on
        // modules before it, so the compiler keeps the layers
        // (docs/ARCHITECTURE.md, "Layout"; ModuleGraphTests checks that the
        // doc shows these arrows). Each folder's README.md says what it holds.
        // The system: descriptors, processes, signals, threads, the clock,
        // paths, the sandbox's means.
        .target(name: "HostSystem", dependencies: ["SystemShims", "CSeccomp"], exclude: ["README.md"]),
        // Text rules (control characters, width, JSON) and the canvas.
        .target(name: "HostText", dependencies: ["PresenterABI"], exclude: ["README.md"]),
        // The sandbox's policy: what a process that runs plugin code (the
        // scan helper, the presenter process) may do, putting it under those
        // rules, and what its reports mean; the means it uses (Landlock,
        // seccomp, namespaces) are HostSystem's, the only module that makes
        // system calls. Its own module because HostPlugins and HostEngine
        // both start such processes.
        // PRESENTER_HOST_TEST_SWITCHES: the environment switches that exist
        // for tests (PRESENTER_HOST_SANDBOX_OFF) are compiled into the debug
        // build the tests run, never into a release build (SECURITY.md).
        .target(
            name: "HostSandbox", dependencies: ["HostSystem", "HostText", "SystemShims"], exclude: ["README.md"],
            swiftSettings: [.define("PRESENTER_HOST_TEST_SWITCHES", .when(configuration: .debug))]
        ),
        // Plugins: discovery, loading (the scan helper), the registry.
        .target(
            name: "HostPlugins",
            dependencies: ["HostSystem", "HostText", "HostSandbox", "PresenterABI", "SystemShims"],
            exclude: ["README.md"]),
        // The presenter engine (hooks, host services) and the presenter process.
        .target(
            name: "HostEngine", dependencies: ["HostSystem", "HostText", "HostSandbox", "HostPlugins", "PresenterABI"],
            exclude: ["README.md"]),
        // The runtime, with progress, rendering and the terminal.
        .target(
            name: "HostRuntime", dependencies: ["HostSystem", "HostText", "HostPlugins", "HostEngine", "PresenterABI"],
            exclude: ["README.md"]),
        // The bookmark store and get-title: on the system and text only.
        .target(name: "HostBookmarks", dependencies: ["HostSystem", "HostText"], exclude: ["README.md"]),
        // The command line, with the Add Bookmark screen, drive and check.
        .target(
            name: "HostCommandLine",
            dependencies: [
                "HostSystem", "HostText", "HostSandbox", "HostPlugins", "HostEngine", "HostRuntime", "HostBookmarks",
                "PresenterABI",
            ],
            exclude: ["README.md"]),
        // The library's module: no code of its own, it re-exports the
        // declarations of the library's API one by one, so that `import
        // PresenterHost` is the whole library and nothing more. The Add
        // Bookmark app (HostBookmarks) is the command line's, not the library's.
        .target(
            name: "PresenterHost",
            dependencies: ["HostSystem", "HostText", "HostSandbox", "HostPlugins", "HostEngine", "HostRuntime"],
            exclude: ["README.md"]),
        // The command users run. It never loads plugin code (the processes
        // that do run presenter-host-plugins), so it may link the Swift
        // runtime statically: a start like native code's (docs/BENCHMARKS.md).
        // An unsafe flag only on this executable: the library products a
        // package depending on this one uses carry none.
        .executableTarget(
            name: "presenter-host", dependencies: ["HostCommandLine"],
            linkerSettings: [.unsafeFlags(["-static-stdlib"])]),
        // Every process that loads plugin code links the Swift runtime
        // dynamically: a Swift plugin shares its process's one runtime.
        .executableTarget(name: "presenter-host-plugins", dependencies: ["HostCommandLine"]),
        // Test doubles (TestBackend, ManualClock's advance) for this package's
        // tests and for anyone testing a view on the runtime; never linked
        // into the host.
        .target(name: "PresenterHostTesting", dependencies: ["HostText", "HostEngine", "HostRuntime"]),
        // The only target that imports FoundationNetworking (libcurl and some
        // 30 more libraries, which would nearly double presenter-host's
        // start-up): presenter-host spawns it per fetch.
        .executableTarget(name: "presenter-host-fetch", dependencies: ["SystemShims"]),
        .target(
            name: "MBHud", dependencies: ["PresenterSDK"], path: "Plugins/MBHud", plugins: ["PresenterDescription"]),
        .target(
            name: "NetActivity", dependencies: ["PresenterSDK"], path: "Plugins/NetActivity",
            plugins: ["PresenterDescription"]),
        .target(
            name: "AddBookmark", dependencies: ["PresenterSDK"], path: "Plugins/AddBookmark",
            plugins: ["PresenterDescription"]),
        .target(
            name: "Line", dependencies: ["PresenterSDK"], path: "Plugins/Line", plugins: ["PresenterDescription"]),
        .target(
            name: "SwiftExamplePresenter", dependencies: ["PresenterSDK"],
            path: "Examples/SwiftExamplePresenter", plugins: ["PresenterDescription"]),
        .testTarget(
            name: "PresenterHostTests",
            dependencies: [
                "HostSystem", "HostText", "HostSandbox", "HostPlugins", "HostEngine", "HostRuntime", "HostBookmarks",
                "HostCommandLine",
                "PresenterHost", "PresenterHostTesting", "PresenterABI", "SystemShims", "PresenterSDK",
            ],
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

// A file uses only the members of modules it imports itself, as SwiftPM
// builds: an import another file happens to make no longer lends its
// extensions, so each file's imports say what it uses and none does nothing.
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
