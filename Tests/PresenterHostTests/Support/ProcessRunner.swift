import Foundation

/// Runs a program as a real process and captures what it printed.
struct ProcessResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum ProcessRunner {
    /// Runs `executable` with `arguments`. `environment` entries are added to a
    /// clean copy of this process's environment with `CI` and `NO_COLOR` removed
    /// (the CI machine sets `CI=true`); pass `"CI": "true"` to test that mode.
    static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                    stdin: String? = nil, currentDirectory: URL? = nil) throws -> ProcessResult {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["CI"] = nil
        env["NO_COLOR"] = nil
        env["PRESENTER_PLUGIN_PATH"] = nil
        for (k, v) in environment { env[k] = v }
        process.environment = env
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        // Read both pipes concurrently so a full pipe cannot deadlock the child.
        let errBox = DataBox()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { errBox.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        let errData = errBox.data
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus,
                             stdout: String(decoding: outData, as: UTF8.self),
                             stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs the built `presenter-host` with `arguments`.
    static func host(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult {
        try run(TestPaths.binary, arguments, environment: environment)
    }
}

/// Holds what the stderr reader read; the DispatchGroup orders the write before the read.
private final class DataBox: @unchecked Sendable {
    var data = Data()
}
