import Foundation

/// Where the tests find the package and the products `swift build` made.
enum TestPaths {
    /// The package root (the folder holding Package.swift).
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    /// The build products folder (`.build/debug` or the scratch path's): the
    /// folder of the running test bundle, where SwiftPM also puts the
    /// `presenter-host` executable and the plugin libraries.
    static let products: URL = {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        // On Linux the test bundle is `<products>/presenter-hostPackageTests.xctest`.
        while dir.path != "/"
            && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("presenter-host").path)
        {
            dir.deleteLastPathComponent()
        }
        return dir
    }()

    /// The built `presenter-host` executable.
    static var binary: URL { products.appendingPathComponent("presenter-host") }
    /// The built presenter-host-plugins: where plugin code runs.
    static var pluginsBinary: URL { products.appendingPathComponent("presenter-host-plugins") }

    /// A built library product, e.g. `library("MBHud")` → `<products>/libMBHud.so`.
    static func library(_ name: String) -> URL { products.appendingPathComponent("lib\(name).so") }

    /// The ABI header's folder, for compiling C fixtures.
    static var abiInclude: URL { packageRoot.appendingPathComponent("Sources/PresenterABI/include") }

    /// A fresh temporary folder, removed by the caller when it likes (CI machines are fresh).
    static func temporaryDirectory(_ label: String = "ph") -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
