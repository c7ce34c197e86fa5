import Foundation
@testable import HostRuntime
#if canImport(Glibc)
    import Glibc
#endif

/// A loopback HTTP server of the get-title tests (Fixtures/web/title_server.py,
/// whose header lists its pages, or tls_server.py), started once for the
/// test process on a port the kernel picks. It ends when this
/// process does: it reads its stdin, a pipe only this process holds, until
/// end of file.
// Safe: `port` is immutable; `process` is used only in `init`, then kept so the server lives with the test process.
final class TitleServer: @unchecked Sendable {
    /// The one title server of the test process.
    static let shared = start("title_server.py")

    /// The one server of Fixtures/web/tls_server.py: TLS with a
    /// certificate no client trusts, and plain HTTP, on one port.
    static let bothProtocols = start("tls_server.py")

    private static func start(_ script: String) -> TitleServer {
        do {
            return try TitleServer(script: script)
        } catch {
            fatalError("cannot start \(script): \(error)")
        }
    }

    let port: Int
    private let process: TestProcess

    struct StartError: Error, CustomStringConvertible {
        let description: String
    }

    private init(script name: String) throws {
        let script = TestPaths.packageRoot.appendingPathComponent("Tests/PresenterHostTests/Fixtures/web/\(name)")
        process = try TestProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", script.path], stderr: .null)
        // The first line is "port N"; it comes once the server listens.
        var said: [UInt8] = []
        while !said.contains(UInt8(ascii: "\n")) {
            let chunk = process.readAvailable()
            guard !chunk.isEmpty else {
                throw StartError(description: "it ended, having said '\(String(decoding: said, as: UTF8.self))'")
            }
            said += chunk
        }
        let line = String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.hasPrefix("port "), let port = Int(line.dropFirst(5)) else {
            throw StartError(description: "it said '\(line)' instead of 'port N'")
        }
        self.port = port
    }

    /// `http://127.0.0.1:PORT` + `path`.
    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// The text of one of the server's own pages (/sent, /seen, /proxied),
    /// fetched with Python's urllib (the tests check the product's client,
    /// not themselves).
    func ask(_ path: String) throws -> String {
        let result = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c",
                "import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=10).read().decode())",
                url(path),
            ], environment: WebTitleFetchTests.noProxies)
        return result.stdout
    }

    /// Asks `path` until `condition` holds of its answer or 10 s have
    /// passed; returns the last answer. (Each question starts a Python: the
    /// loop needs no pause of its own.)
    func wait(for path: String, until condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(10)
        var answer = try ask(path)
        while !condition(answer) && Date() < deadline {
            answer = try ask(path)
        }
        return answer
    }
}

/// A TCP port on 127.0.0.1 that refuses connections: bound, not listening,
/// held until `close()`.
final class RefusingPort {
    let port: Int
    private let socket: Int32

    init() {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        self.socket = socket
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                _ = bind(socket, generic, length)
                _ = getsockname(socket, generic, &length)
            }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(socket) }
}
