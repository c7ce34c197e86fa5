import Foundation
import Testing
@testable import HostRuntime

/// `scripts/layers`, what the compiler cannot check: inside each of the
/// host's modules, its folders flow one way (discovery → loading → registry
/// in HostPlugins); no file outside HostSystem makes a descriptor system call
/// (`close(fd)`, `FileDescriptor`'s alone), a process-wide one (`signal`,
/// `kill`, `setenv`, ...) or another that touches the system (`realpath`,
/// `dlopen`, `geteuid`, `usleep`, ...); and no code names FileHandle's
/// standard streams.
/// The arrows between modules are Package.swift's, kept by the compiler.
/// Run on the real tree, and on small trees whose violations it must find,
/// and nothing else.
@Suite struct LayeringTests {
    private let script = TestPaths.packageRoot.appendingPathComponent("scripts/layers")

    /// The script's result on a tree of `files` (path: text) under `root`.
    private func run(on root: URL, _ files: [String: String]) throws -> ProcessResult {
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        return try ProcessRunner.run(script, ["--root", root.path])
    }

    /// The script's result on a tree of `files`, and its error lines each up
    /// to its `;` (what is wrong, without the advice).
    private func findings(on root: URL, _ files: [String: String]) throws -> (ProcessResult, [String]) {
        let result = try run(on: root, files)
        return (result, result.stderr.split(separator: "\n").map { String($0.prefix { $0 != ";" }) })
    }

    @Test func theSourcesFlowOneWay() throws {
        let result = try ProcessRunner.run(script, [])
        #expect(result.stderr == "")
        #expect(result.status == 0)
    }

    @Test func aFolderNamingALaterFoldersTypeInItsModuleFails() throws {
        let root = TestPaths.temporaryDirectory("layers")
        let files = [
            "HostSystem/Write.swift": "func writeAll() {}\nfunc found() -> Found? { nil }\n",
            "HostPlugins/Discovery/Found.swift": """
            /// Not `Loaded`: a comment may name a later folder.
            struct Found {
                let label = "Loaded"  // nor does a string's text count
                func write() { writeAll() }  // another module's: the compiler's business
                func up() -> String { "\\(Loaded.self)" }  // an interpolation is code
            }

            """,
            "HostPlugins/Loading/Loaded.swift": "struct Loaded {\n    let found: Found\n}\n",
            "HostPlugins/Registry/Catalog.swift": "struct Catalog {\n    let loaded: Loaded\n    let thing: Thing\n}\n",
            "HostPlugins/Cache/Kept.swift": "struct Kept {}\n",
            "HostPlugins/Registry/Shelf.swift": "struct Shelf {\n    let kept: Kept\n}\n",
            "HostRuntime/Runtime/Thing.swift": "struct Thing {}\n",
        ]
        let (result, errors) = try findings(on: root, files)
        #expect(result.status == 1)
        #expect(
            errors == [
                "Error: HostPlugins/Discovery/Found.swift:5: Discovery/ names Loaded from Loading/, a later folder of HostPlugins",
                "Error: HostPlugins/Registry/Shelf.swift:2: Registry/ names Kept from Cache/, a folder MODULES does not place of HostPlugins",
            ], "\(result.stderr)")
    }

    @Test func aDescriptorSystemCallOutsideHostSystemFails() throws {
        let root = TestPaths.temporaryDirectory("syscalls")
        let files = [
            "HostSystem/FileDescriptor.swift": "struct FileDescriptor {\n    func close() { _ = Glibc.close(3) }\n}\n",
            "HostPlugins/Loading/Raw.swift": """
            // close(fd) in a comment is no call, nor is "write(" in a string.
            func leak(_ fd: Int32) {
                close(fd)
                _ = fcntl(fd, F_GETFL) | poll(nil, 0, 0)
            }

            """,
            "HostRuntime/Rendering/Backend.swift": """
            final class Backend {
                let fd = FileDescriptor()
                func write(_ text: String) {}
                func frame() {
                    write("frame")  // its own method
                    fd.close()  // FileDescriptor's
                    shutdown()  // a method of no arguments: no system call takes none
                }
                func read(_ buffer: inout [UInt8]) -> Int { Glibc.read(3, &buffer, 1) }
            }

            """,
        ]
        let (result, errors) = try findings(on: root, files)
        #expect(result.status == 1)
        #expect(
            errors == [
                "Error: HostPlugins/Loading/Raw.swift:3: calls close( itself",
                "Error: HostPlugins/Loading/Raw.swift:4: calls fcntl( itself",
                "Error: HostPlugins/Loading/Raw.swift:4: calls poll( itself",
                "Error: HostRuntime/Rendering/Backend.swift:9: calls Glibc.read( itself",
            ], "\(result.stderr)")
    }

    @Test func aProcessWideCallOutsideHostSystemFails() throws {
        let root = TestPaths.temporaryDirectory("process-calls")
        let files = [
            "HostSystem/ProcessSignals.swift":
                "enum ProcessSignals {\n    static func ignore() { signal(SIGPIPE, SIG_IGN) }\n}\n",
            "HostCommandLine/CommandLine/Session.swift": """
            // signal(SIGPIPE, SIG_IGN) in a comment is no call, nor is "raise(" in a string.
            func start(_ pid: pid_t, _ trap: Trap) {
                signal(SIGPIPE, SIG_IGN)
                raise(SIGSTOP); _ = Glibc.kill(pid, SIGKILL)
                setenv("PRESENTER_HOST_DEBUG", "1", 1)
                _ = setrlimit(__rlimit_resource_t(RLIMIT_AS.rawValue), nil)
                ProcessSignals.ignore()  // the helper
                trap.signal(SIGINT)  // a method
                let signal = trap.signal  // a value
            }

            """,
            "HostPlugins/Loading/Helper.swift": """
            final class Helper {
                func kill(_ pid: pid_t) {}
                func stop(_ pid: pid_t) { kill(pid) }  // its own method
            }

            """,
        ]
        let (result, errors) = try findings(on: root, files)
        #expect(result.status == 1)
        #expect(
            errors == [
                "Error: HostCommandLine/CommandLine/Session.swift:3: calls signal( itself",
                "Error: HostCommandLine/CommandLine/Session.swift:4: calls raise( itself",
                "Error: HostCommandLine/CommandLine/Session.swift:4: calls Glibc.kill( itself",
                "Error: HostCommandLine/CommandLine/Session.swift:5: calls setenv( itself",
                "Error: HostCommandLine/CommandLine/Session.swift:6: calls setrlimit( itself",
            ], "\(result.stderr)")
        #expect(result.stderr.contains("process-wide calls are HostSystem's alone"))
    }

    /// The environment is read once, by ProcessEnvironment, and passed
    /// down as a value: a module that reads it itself, even HostSystem,
    /// is found (issue 32).
    @Test func anEnvironmentReadOutsideProcessEnvironmentFails() throws {
        let root = TestPaths.temporaryDirectory("environment-reads")
        let files = [
            "HostSystem/ProcessEnvironment.swift":
                "enum ProcessEnvironment {\n    static let current = read(ph_environment())\n}\n",
            "HostSystem/Spill.swift": """
            // getenv("TMPDIR") in a comment is no read, nor is "environ" in a string.
            let folder = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
            let named = ProcessEnvironment.current["TMPDIR"]  // the reader: fine

            """,
            "HostEngine/Sandbox/Launch.swift": """
            func start(_ environment: [String: String]) {
                var pointer = environ
                let all = ProcessInfo.processInfo.environment
                let passed = environment  // a value passed down: fine
            }

            """,
        ]
        let (result, errors) = try findings(on: root, files)
        #expect(result.status == 1)
        #expect(
            errors == [
                "Error: HostSystem/Spill.swift:2: reads the process's environment itself (getenv)",
                "Error: HostEngine/Sandbox/Launch.swift:2: reads the process's environment itself (environ)",
                "Error: HostEngine/Sandbox/Launch.swift:3: reads the process's environment itself "
                    + "(ProcessInfo.processInfo.environment)",
            ], "\(result.stderr)")
        #expect(result.stderr.contains("only HostSystem/ProcessEnvironment.swift reads it"))
    }

    @Test func aSystemCallOutsideHostSystemFails() throws {
        let root = TestPaths.temporaryDirectory("system-calls")
        let files = [
            "HostSystem/PathName.swift": """
            enum PathName {
                static func realPath(_ path: String) -> String? { realpath(path, nil).map { String(cString: $0) } }
            }

            """,
            "HostPlugins/Discovery/Check.swift": """
            // realpath(path, nil) in a comment is no call, nor is "dlopen(" in a string.
            enum Failure { case dlopen(String) }  // a case of that name
            func check(_ path: String) {
                var info = stat()  // the C struct's initializer
                _ = stat(path, &info); _ = realpath(path, nil)
                let handle = Glibc.dlopen(path, RTLD_NOW | RTLD_LOCAL)
                if geteuid() != 0 { usleep(10_000) }
                _ = PathName.realPath(path)  // the helper
                _ = sysconf(_SC_PAGESIZE)
            }

            """,
            "HostBookmarks/Store.swift": """
            final class Store {
                func rename(_ path: String, to other: String) {}
                func save() { rename("a", to: "b") }  // its own method
            }

            """,
        ]
        let (result, errors) = try findings(on: root, files)
        #expect(result.status == 1)
        #expect(
            errors == [
                "Error: HostPlugins/Discovery/Check.swift:5: calls stat( itself",
                "Error: HostPlugins/Discovery/Check.swift:5: calls realpath( itself",
                "Error: HostPlugins/Discovery/Check.swift:6: calls Glibc.dlopen( itself",
                "Error: HostPlugins/Discovery/Check.swift:7: calls geteuid( itself",
                "Error: HostPlugins/Discovery/Check.swift:7: calls usleep( itself",
                "Error: HostPlugins/Discovery/Check.swift:9: calls sysconf( itself",
            ], "\(result.stderr)")
        #expect(result.stderr.contains("realpath( itself; system calls are HostSystem's alone: use PathName"))
        #expect(result.stderr.contains("sysconf( itself; system calls are HostSystem's alone: add a type for it there"))
    }

    @Test func fileHandlesStandardStreamsFailEverywhere() throws {
        let root = TestPaths.temporaryDirectory("file-handles")
        let files = [
            // HostSystem too: its write stops the process on a closed stdout.
            "HostSystem/Out.swift": "func out(_ data: Data) { FileHandle.standardOutput.write(data) }\n",
            "HostPlugins/Loading/Report.swift": """
            // FileHandle.standardError in a comment is no use, nor is "FileHandle.standardInput" in a string.
            func report(_ data: Data, _ log: FileHandle) {
                FileHandle . standardError.write(data)
                let input = FileHandle.standardInput
                log.write(data)  // a file the code opened: not a standard stream
                _ = MyFileHandle.standardOutput
            }

            """,
        ]
        let (result, errors) = try findings(on: root, files)
        #expect(result.status == 1)
        #expect(
            errors == [
                "Error: HostPlugins/Loading/Report.swift:3: uses FileHandle.standardError",
                "Error: HostPlugins/Loading/Report.swift:4: uses FileHandle.standardInput",
                "Error: HostSystem/Out.swift:1: uses FileHandle.standardOutput",
            ], "\(result.stderr)")
    }
}
