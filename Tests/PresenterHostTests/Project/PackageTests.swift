import Foundation
import Testing

/// The Debian package (`scripts/deb`, `make deb`), unpacked with `dpkg -x`
/// into a temporary folder and run where the Swift toolchain is hidden.
///
/// The package is built once per test run from this run's own products
/// (`scripts/deb --from <products> --fast`): the same script `make deb`
/// runs on the release products, compressed with gzip -1 instead of xz.
/// The runtime libraries shipped, the RUNPATHs and Depends are found from
/// the binaries, so the debug products give the package of a debug build
/// (it also ships libswiftSwiftOnoneSupport.so, which debug code needs); a
/// release build here would add minutes. `scripts/test-package` installs the release
/// package on a fresh Debian.
@Suite struct PackageTests {
    /// The unpacked package's root, or why it could not be made.
    private static let unpacked: Result<URL, PackageFailure> = {
        let out = TestPaths.temporaryDirectory("deb")
        let build = try? ProcessRunner.run(
            TestPaths.packageRoot.appendingPathComponent("scripts/deb"),
            ["--from", TestPaths.products.path, "--out", out.path, "--fast"])
        guard let build, build.status == 0 else {
            return .failure(PackageFailure(message: "scripts/deb failed: \(build?.stderr ?? "did not start")"))
        }
        let debs = (try? FileManager.default.contentsOfDirectory(atPath: out.path))?.filter { $0.hasSuffix(".deb") }
        guard let deb = debs?.first, debs?.count == 1 else {
            return .failure(PackageFailure(message: "scripts/deb wrote \(debs ?? []) into \(out.path)"))
        }
        let root = out.appendingPathComponent("root")
        let unpack = try? ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/dpkg"), ["-x", out.appendingPathComponent(deb).path, root.path])
        guard unpack?.status == 0 else {
            return .failure(PackageFailure(message: "dpkg -x failed: \(unpack?.stderr ?? "did not start")"))
        }
        return .success(root)
    }()

    private struct PackageFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    private static var deb: URL {
        get throws {
            let folder = try unpacked.get().deletingLastPathComponent()
            let name = try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".deb") }
            return folder.appendingPathComponent(name ?? "missing.deb")
        }
    }

    private static let lib = "usr/lib/presenter-host"

    /// The toolchain's folder, from the products' RUNPATH
    /// (`/opt/swift/usr/lib/swift/linux` → `/opt/swift`): what is hidden.
    private static let toolchain: String? = {
        guard let dynamic = try? shell("readelf -d '\(TestPaths.pluginsBinary.path)'"), dynamic.status == 0 else {
            return nil
        }
        let suffix = "/usr/lib/swift/linux"
        for line in dynamic.stdout.split(separator: "\n") where line.contains("(RUNPATH)") {
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { continue }
            for entry in line[line.index(after: open)..<close].split(separator: ":") where entry.hasSuffix(suffix) {
                return String(entry.dropLast(suffix.count))
            }
        }
        return nil
    }()

    /// Whether a mount namespace can be made here (root, or a kernel that
    /// lets users make one); where it cannot, the hidden-toolchain tests
    /// are skipped with this reason.
    private static let canHideToolchain: Bool = {
        guard let toolchain, Toolchain.find("unshare") != nil else { return false }
        let probe = try? shell("unshare -m sh -c 'mount -t tmpfs tmpfs \"$0\"' '\(toolchain)'")
        return probe?.status == 0
    }()

    /// Runs `script` with sh in a mount namespace where the toolchain's
    /// folder is an empty tmpfs; `$ROOT` is the unpacked package.
    private func withoutToolchain(_ script: String, environment: [String: String] = [:]) throws -> ProcessResult {
        let root = try Self.unpacked.get()
        return try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            [
                "-m", "--", "/bin/sh", "-c", "mount -t tmpfs tmpfs \"$0\" && exec /bin/sh -c \"$1\"",
                Self.toolchain ?? "/nonexistent", script,
            ],
            environment: environment.merging(["ROOT": root.path]) { $1 })
    }

    private static func shell(_ command: String, environment: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run(URL(fileURLWithPath: "/bin/sh"), ["-c", command], environment: environment)
    }

    // MARK: - Running where Swift is not

    @Test(.enabled(if: canHideToolchain, "cannot make a mount namespace here (unshare -m refused): not run"))
    func theUnpackedPackageRunsWhereTheToolchainIsHidden() throws {
        let root = try Self.unpacked.get()
        // The hiding works: presenter-host-plugins of this build cannot
        // start without it; presenter-host, whose runtime is linked in, can.
        let products = try withoutToolchain("'\(TestPaths.pluginsBinary.path)' --version")
        #expect(products.status == 127 && products.stderr.contains("libswift"), "\(products)")
        let host = try withoutToolchain("'\(TestPaths.binary.path)' --version")
        #expect(host.status == 0, "\(host)")

        let version = try withoutToolchain("\"$ROOT/usr/bin/presenter-host\" --version")
        #expect(version.status == 0, "\(version.stderr)")
        #expect(version.stdout.hasPrefix("presenter-host 0.1.0 (presenter ABI 1."), "\(version.stdout)")

        let environment = ["CI": "true", "XDG_DATA_HOME": TestPaths.temporaryDirectory("xdg").path]
        let run = try withoutToolchain(
            "\"$ROOT/usr/bin/presenter-host\" run --working Packaged -- sh -c 'echo out; exit 7'",
            environment: environment)
        #expect(run.status == 7, "\(run.stderr)")
        #expect(run.stdout == "out\n")
        #expect(run.stderr.contains("Packaged"), "\(run.stderr)")

        let plugins = root.appendingPathComponent("\(Self.lib)/plugins").path
        for flags in ["", "--bundled-only "] {
            let list = try withoutToolchain(
                "\"$ROOT/usr/bin/presenter-host\" \(flags)--list --no-cache", environment: environment)
            #expect(list.status == 0 && list.stderr.isEmpty, "\(list.stderr)")
            for (id, file) in [
                ("mbhud", "libMBHud.so"), ("netactivity", "libNetActivity.so"), ("addbookmark", "libAddBookmark.so"),
                ("line", "libLine.so"),
            ] {
                #expect(
                    list.stdout.split(separator: "\n").contains {
                        $0.hasPrefix(id + " ") && $0.hasSuffix("\(plugins)/\(file)")
                    },
                    "\(flags)--list: \(list.stdout)")
            }
        }
        // check's sessions are presenter processes: presenter-host-plugins
        // on the runtime shipped, sandboxed, loading the shipped presenters.
        let check = try withoutToolchain(
            "\"$ROOT/usr/bin/presenter-host\" check --hook-timeout 2 \"$ROOT/\(Self.lib)/plugins/libMBHud.so\"",
            environment: environment)
        #expect(check.status == 0 && check.stdout.contains(" 0 failed, "), "\(check.stdout)\(check.stderr)")
        let path = try withoutToolchain(
            "\"$ROOT/usr/bin/presenter-host\" --print-plugin-path", environment: environment)
        #expect(path.stdout == "\(environment["XDG_DATA_HOME"]!)/presenter-host/plugins\n\(plugins)\n")

        var direct = WebTitleFetchTests.noProxies
        direct["PRESENTER_PLUGIN_PATH"] = ""
        let title = try withoutToolchain(
            "\"$ROOT/usr/bin/presenter-host\" add-bookmark --get-title --url \"$URL\"",
            environment: direct.merging(["URL": TitleServer.shared.url("/page?title=Packaged")]) { $1 })
        #expect(title.status == 0 && title.stdout == "Packaged\n", "\(title.stderr)")
    }

    /// Every ELF file of the package finds every library it needs, the Swift
    /// ones inside the package, with the toolchain hidden.
    @Test(.enabled(if: canHideToolchain, "cannot make a mount namespace here (unshare -m refused): not run"))
    func lddFindsEveryLibraryOfEveryFile() throws {
        let root = try Self.unpacked.get()
        let files = try Self.elfFiles(under: root)
        #expect(files.count >= 8, "\(files)")
        let script = files.map { "echo \"== \($0)\"; ldd \"$ROOT/\($0)\"" }.joined(separator: "; ")
        let ldd = try withoutToolchain(script)
        #expect(ldd.status == 0, "\(ldd.stderr)")
        #expect(!ldd.stdout.contains("not found"), "\(ldd.stdout)")
        let shipped = try FileManager.default.contentsOfDirectory(
            atPath: root.appendingPathComponent("\(Self.lib)/swift-runtime").path)
        for line in ldd.stdout.split(separator: "\n") {
            let name = line.trimmingCharacters(in: .whitespaces).split(separator: " ").first.map(String.init) ?? ""
            guard shipped.contains(name) else { continue }
            #expect(line.contains("=> \(root.path)/\(Self.lib)/"), "found outside the package: \(line)")
        }
    }

    // MARK: - What the package holds

    @Test func runPathsAreRelativeToEachFileAndNothingNamesTheToolchain() throws {
        let root = try Self.unpacked.get()
        for file in try Self.elfFiles(under: root) {
            let runpath =
                Self.dynamic(root.appendingPathComponent(file), "RUNPATH")
                + Self.dynamic(root.appendingPathComponent(file), "RPATH")
            for entry in runpath.flatMap({ $0.split(separator: ":") }) {
                #expect(entry.hasPrefix("$ORIGIN"), "\(file) has RUNPATH \(entry)")
            }
        }
        let expected = [
            "\(Self.lib)/presenter-host": [],
            "\(Self.lib)/presenter-host-plugins": ["$ORIGIN/swift-runtime"],
            "\(Self.lib)/presenter-host-fetch": ["$ORIGIN/swift-runtime"],
            "\(Self.lib)/plugins/libMBHud.so": ["$ORIGIN/../swift-runtime"],
        ]
        for (file, runpath) in expected {
            #expect(Self.dynamic(root.appendingPathComponent(file), "RUNPATH") == runpath, "\(file)")
        }
    }

    /// The Swift runtime shipped is exactly what the binaries need, transitively.
    @Test func theRuntimeFolderHoldsOnlyWhatTheBinariesNeed() throws {
        let root = try Self.unpacked.get()
        let runtime = root.appendingPathComponent("\(Self.lib)/swift-runtime")
        let shipped = Set(try FileManager.default.contentsOfDirectory(atPath: runtime.path))
        var needed = Set<String>()
        var queue = [
            "presenter-host", "presenter-host-plugins", "presenter-host-fetch", "plugins/libMBHud.so",
            "plugins/libNetActivity.so", "plugins/libAddBookmark.so", "plugins/libLine.so",
        ].map { root.appendingPathComponent("\(Self.lib)/\($0)") }
        while let file = queue.popLast() {
            for name in Self.dynamic(file, "NEEDED") where shipped.contains(name) && needed.insert(name).inserted {
                queue.append(runtime.appendingPathComponent(name))
            }
        }
        #expect(needed == shipped)
        #expect(shipped.isSuperset(of: ["libswiftCore.so", "libFoundation.so", "libFoundationNetworking.so"]))
        // The host has the runtime linked in; presenter-host-plugins, which
        // loads plugin code, runs on the shared one, as Swift plugins do.
        #expect(
            !Self.dynamic(root.appendingPathComponent("\(Self.lib)/presenter-host"), "NEEDED").contains {
                $0.hasPrefix("libswift")
            })
        #expect(
            Self.dynamic(root.appendingPathComponent("\(Self.lib)/presenter-host-plugins"), "NEEDED").contains(
                "libswiftCore.so"))
    }

    /// Depends names the Debian package of every library the ELF files need
    /// from outside the package (found with readelf, resolved by ldconfig,
    /// owned per dpkg -S), and nothing else: a binary that starts linking
    /// another system library (libseccomp, say) fails this until Depends has it.
    @Test func dependsNamesThePackageOfEveryLibraryTheFilesNeedAndNoOther() throws {
        let root = try Self.unpacked.get()
        let control = try Self.shell("dpkg-deb -f '\(try Self.deb.path)' Depends")
        let depends = Set(
            control.stdout.split(separator: ",").map {
                String($0.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ")[0])
            })
        let inPackage = Set(try Self.elfFiles(under: root).map { URL(fileURLWithPath: $0).lastPathComponent })
        let cache = try Self.shell("/sbin/ldconfig -p").stdout
        // Each library name once (dpkg -S takes a while), with a file that needs it.
        var needers: [String: String] = [:]
        for file in try Self.elfFiles(under: root) {
            for name in Self.dynamic(root.appendingPathComponent(file), "NEEDED") where !inPackage.contains(name) {
                needers[name] = needers[name] ?? file
            }
        }
        var owners = Set<String>()
        for (name, file) in needers.sorted(by: { $0.key < $1.key }) {
            // `\tlibc.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libc.so.6`
            let line = cache.split(separator: "\n").first { $0.hasPrefix("\t\(name) ") }
            let path = try #require(
                line?.components(separatedBy: " => ").last, "\(file) needs \(name), which ldconfig does not know")
            // dpkg knows a file by the path its package installed it at: /lib or /usr/lib, the link or its target.
            let owner = try Self.shell(
                "for p in '\(path)' '/usr\(path)' \"$(readlink -f '\(path)')\"; do dpkg -S \"$p\" 2>/dev/null && break; done"
            )
            let package = try #require(
                owner.stdout.split(separator: ":").first.map(String.init), "no package owns \(path)")
            owners.insert(package)
            #expect(
                depends.contains(package),
                "\(file) needs \(name) from \(package), which Depends does not name: \(depends)")
        }
        #expect(depends == owners, "Depends: \(depends); the libraries' packages: \(owners)")
        #expect(depends.isSuperset(of: ["libc6", "libstdc++6", "libcurl4"]))
    }

    @Test func thePackageHoldsTheDocumentedFilesInDebiansPlaces() throws {
        let root = try Self.unpacked.get()
        let link = try FileManager.default.destinationOfSymbolicLink(
            atPath: root.appendingPathComponent("usr/bin/presenter-host").path)
        #expect(link == "../lib/presenter-host/presenter-host")
        for file in [
            "usr/include/presenter_abi.h", "usr/share/man/man1/presenter-host.1.gz",
            "usr/share/doc/presenter-host/copyright", "usr/share/doc/presenter-host/changelog.gz",
            "usr/share/doc/presenter-host/README.Debian",
        ] {
            #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), "\(file)")
        }
        let man = try Self.shell("zcat '\(root.path)/usr/share/man/man1/presenter-host.1.gz' | head -3")
        #expect(man.stdout.contains(".TH PRESENTER-HOST 1"))
        let changelog = try Self.shell("zcat '\(root.path)/usr/share/doc/presenter-host/changelog.gz' | head -1")
        #expect(changelog.stdout.hasPrefix("presenter-host (0.1.0) "), "\(changelog.stdout)")

        let pkgConfig = ["PKG_CONFIG_PATH": root.appendingPathComponent("usr/share/pkgconfig").path]
        if Toolchain.find("pkg-config") != nil {
            let include = try Self.shell("pkg-config --variable=includedir presenter-abi", environment: pkgConfig)
            #expect(include.stdout == "/usr/include\n", "\(include)")
            let plugindir = try Self.shell("pkg-config --variable=plugindir presenter-abi", environment: pkgConfig)
            #expect(plugindir.stdout == "/usr/lib/presenter-host/plugins\n")
        }
        // The runtime version plugin authors must build with is written down.
        let readme = try String(
            contentsOf: root.appendingPathComponent("usr/share/doc/presenter-host/README.Debian"), encoding: .utf8)
        let swift = try Self.shell("swiftc --version 2>&1 | sed -n '1s/.*Swift version \\([^ ]*\\).*/\\1/p'")
        #expect(readme.contains("Swift \(swift.stdout.trimmingCharacters(in: .whitespacesAndNewlines))"), "\(readme)")
        #expect(!readme.contains("@SWIFT_VERSION@"))
    }

    /// The completions come from the host's own command table
    /// (`presenter-host completions SHELL`): the package holds all three,
    /// and scripts/deb fails rather than build one without them.
    @Test func theShellCompletionsAreTheHostsOwn() throws {
        let root = try Self.unpacked.get()
        let files = [
            "usr/share/bash-completion/completions/presenter-host", "usr/share/zsh/vendor-completions/_presenter-host",
            "usr/share/fish/vendor_completions.d/presenter-host.fish",
        ]
        for (file, shell) in zip(files, ["bash", "zsh", "fish"]) {
            let generated = try ProcessRunner.host(["completions", shell])
            #expect(generated.status == 0, "\(generated.stderr)")
            #expect(!generated.stdout.isEmpty)
            let packaged = try #require(
                try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8), "\(file) is missing")
            #expect(packaged == generated.stdout, "\(file)")
        }
        // bash, as it completes a typed line with the packaged file: the
        // commands, run's options, the ids --list finds for --presenter, and
        // --color's values.
        let script = """
            [ -f /usr/share/bash-completion/bash_completion ] && . /usr/share/bash-completion/bash_completion
            . "$ROOT/\(files[0])"
            function=$(complete -p presenter-host | sed -n 's/.*-F \\([^ ]*\\).*/\\1/p')
            line() {
                COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                "$function" presenter-host "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
                echo "== $*: ${COMPREPLY[*]}"
            }
            line presenter-host ''
            line presenter-host run --
            line presenter-host run --presenter ''
            line presenter-host run --color ''
            """
        let bash = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/bash"), ["-c", script],
            environment: [
                "ROOT": root.path, "PATH": root.appendingPathComponent("usr/bin").path + ":/usr/bin:/bin",
                "XDG_DATA_HOME": TestPaths.temporaryDirectory("xdg").path,
            ])
        #expect(bash.status == 0, "\(bash.stderr)")
        let replies = Dictionary(
            bash.stdout.split(separator: "\n").filter { $0.hasPrefix("== ") }.map { line in
                let parts = line.dropFirst(3).split(separator: ":", maxSplits: 1)
                return (String(parts[0]), Set((parts.count > 1 ? parts[1] : "").split(separator: " ").map(String.init)))
            }, uniquingKeysWith: { $1 })
        #expect(
            replies["presenter-host "]?.isSuperset(of: ["run", "check", "drive", "add-bookmark"]) == true,
            "\(bash.stdout)")
        #expect(
            replies["presenter-host run --"]?.isSuperset(of: ["--presenter", "--working", "--success"]) == true,
            "\(bash.stdout)")
        #expect(
            replies["presenter-host run --presenter "]?.isSuperset(of: ["mbhud", "netactivity", "addbookmark", "line"])
                == true,
            "\(bash.stdout)")
        #expect(replies["presenter-host run --color "] == ["auto", "always", "never"], "\(bash.stdout)")
    }

    // MARK: - Helpers

    /// The package's ELF files, as paths relative to `root`.
    private static func elfFiles(under root: URL) throws -> [String] {
        var files: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: root.path)
        while let path = enumerator?.nextObject() as? String {
            let url = root.appendingPathComponent(path)
            guard (try? url.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) != true,
                let handle = FileHandle(forReadingAtPath: url.path)
            else { continue }
            defer { try? handle.close() }
            if (try? handle.read(upToCount: 4)) == Data([0x7f, 0x45, 0x4c, 0x46]) { files.append(path) }
        }
        return files.sorted()
    }

    /// The values of the dynamic section's `tag` entries (NEEDED, RUNPATH, RPATH), as readelf shows them.
    private static func dynamic(_ file: URL, _ tag: String) -> [String] {
        guard let result = try? shell("readelf -d '\(file.path)'") else { return [] }
        return result.stdout.split(separator: "\n").filter { $0.contains("(\(tag))") }.compactMap { line in
            guard let open = line.lastIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }
}
