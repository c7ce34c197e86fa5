import Foundation
import PresenterHost

/// A pseudo-terminal pair, so the code under test sees a real terminal.
/// (Glibc's Swift module hides the X/Open pty functions; they are looked up.)
final class PseudoTerminal {
    let leader: Int32
    /// -1 once closed (``closeFollower()``).
    private(set) var follower: Int32
    /// The follower, as the code under test takes a descriptor.
    var followerFD: FileDescriptor { FileDescriptor(rawValue: follower) }
    struct Unavailable: Error {}
    init(cols: Int, rows: Int) throws {
        typealias OpenFunction = @convention(c) (Int32) -> Int32
        typealias FDFunction = @convention(c) (Int32) -> Int32
        typealias NameFunction = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?
        func lookup<F>(_ name: String, as type: F.Type) throws -> F {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { throw Unavailable() }
            return unsafeBitCast(symbol, to: type)
        }
        // Close-on-exec: no program another test starts meanwhile holds them.
        leader = try lookup("posix_openpt", as: OpenFunction.self)(O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard leader >= 0, try lookup("grantpt", as: FDFunction.self)(leader) == 0,
            try lookup("unlockpt", as: FDFunction.self)(leader) == 0,
            let name = try lookup("ptsname", as: NameFunction.self)(leader)
        else { throw Unavailable() }
        follower = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard follower >= 0 else { throw Unavailable() }
        resize(cols: cols, rows: rows)
    }
    func resize(cols: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(cols), ws_xpixel: 0, ws_ypixel: 0)
        _ = ioctl(leader, UInt(TIOCSWINSZ), &size)
    }
    /// Everything written to the follower since the last drain.
    func drain() -> [UInt8] {
        _ = fcntl(leader, F_SETFL, fcntl(leader, F_GETFL) | O_NONBLOCK)
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(leader, &buffer, buffer.count)
            if count <= 0 { return result }
            result += buffer[0..<count]
        }
    }
    /// Closes this process's follower, once a program got its own: the
    /// leader then reads to the end of what the program wrote.
    func closeFollower() {
        if follower >= 0 { close(follower) }
        follower = -1
    }
    deinit {
        closeFollower()
        close(leader)
    }
}
