import Foundation
import Testing
@testable import PresenterHost

/// `scripts/layers`: the host's folders (Sources/Host*) flow one way
/// (discovery → loading → registry); code in a folder never names what a
/// later folder declares, and the foundation below them (Process/, Text/)
/// names none of them; no file outside Process/ makes a descriptor system
/// call (`close(fd)`, `FileDescriptor`'s alone) or a process-wide one
/// (`signal`, `kill`, `setenv`, ...); and no code names FileHandle's
/// standard streams. Run on the real tree, and on small trees whose
/// violations it must find, and nothing else.
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

    @Test func aLowerFolderNamingAHigherFoldersTypeFails() throws {
        let root = TestPaths.temporaryDirectory("layers")
        let files = [
            "Process/Write.swift": "func writeAll() {}\nfunc found() -> Found? { nil }\n",
            "Discovery/Found.swift": """
            /// Not `Loaded`: a comment may name a later layer.
            struct Found {
                let label = "Loaded"  // nor does a string's text count
                func write() { writeAll() }  // the foundation is below every layer
                func up() -> String { "\\(Loaded.self)" }  // an interpolation is code
            }

            """,
            "Loading/Loaded.swift": "struct Loaded {\n    let found: Found\n}\n",
            "Registry/Catalog.swift": "struct Catalog {\n    let loaded: Loaded\n    let thing: Thing\n}\n",
            "Runtime/Thing.swift": "struct Thing {}\n",
        ]
        let result = try run(on: root, files)
        let errors = result.stderr.split(separator: "\n")
        #expect(result.status == 1)
        #expect(errors.count == 3, "\(result.stderr)")
        #expect(errors.first?.hasPrefix("Error: Process/Write.swift:2: Process/ names Found from Discovery/") == true)
        #expect(
            errors.dropFirst().first?.hasPrefix("Error: Discovery/Found.swift:5: Discovery/ names Loaded from Loading/")
                == true)
        #expect(errors.last?.hasPrefix("Error: Registry/Catalog.swift:3: Registry/ names Thing from Runtime/") == true)
    }

    @Test func aDescriptorSystemCallOutsideProcessFails() throws {
        let root = TestPaths.temporaryDirectory("syscalls")
        let files = [
            "Process/FileDescriptor.swift": "struct FileDescriptor {\n    func close() { _ = Glibc.close(3) }\n}\n",
            "Loading/Raw.swift": """
            // close(fd) in a comment is no call, nor is "write(" in a string.
            func leak(_ fd: Int32) {
                close(fd)
                _ = fcntl(fd, F_GETFL) | poll(nil, 0, 0)
            }

            """,
            "Rendering/Backend.swift": """
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
                "Error: Loading/Raw.swift:3: calls close( itself",
                "Error: Loading/Raw.swift:4: calls fcntl( itself",
                "Error: Loading/Raw.swift:4: calls poll( itself",
                "Error: Rendering/Backend.swift:9: calls Glibc.read( itself",
            ], "\(result.stderr)")
    }

    @Test func aProcessWideCallOutsideProcessFails() throws {
        let root = TestPaths.temporaryDirectory("process-calls")
        let files = [
            "Process/ProcessSignals.swift":
                "enum ProcessSignals {\n    static func ignore() { signal(SIGPIPE, SIG_IGN) }\n}\n",
            "CommandLine/Session.swift": """
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
            "Loading/Helper.swift": """
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
                "Error: CommandLine/Session.swift:3: calls signal( itself",
                "Error: CommandLine/Session.swift:4: calls raise( itself",
                "Error: CommandLine/Session.swift:4: calls Glibc.kill( itself",
                "Error: CommandLine/Session.swift:5: calls setenv( itself",
                "Error: CommandLine/Session.swift:6: calls setrlimit( itself",
            ], "\(result.stderr)")
        #expect(result.stderr.contains("process-wide calls are Process/'s alone"))
    }

    @Test func fileHandlesStandardStreamsFailEverywhere() throws {
        let root = TestPaths.temporaryDirectory("file-handles")
        let files = [
            // Process/ too: its write stops the process on a closed stdout.
            "Process/Out.swift": "func out(_ data: Data) { FileHandle.standardOutput.write(data) }\n",
            "Loading/Report.swift": """
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
                "Error: Loading/Report.swift:3: uses FileHandle.standardError",
                "Error: Loading/Report.swift:4: uses FileHandle.standardInput",
                "Error: Process/Out.swift:1: uses FileHandle.standardOutput",
            ], "\(result.stderr)")
    }
}
