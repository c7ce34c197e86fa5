#if canImport(Glibc)
    import Glibc
#endif

/// The fields of `/proc/PID/stat` that the tree needs.
struct ProcessStat {
    /// The state letter (R, S, D, T, t, Z, X, ...).
    let state: UInt8
    /// The parent's pid.
    let parent: pid_t
    /// Clock ticks since boot.
    let startTime: UInt64

    var isStopped: Bool { state == UInt8(ascii: "T") || state == UInt8(ascii: "t") }
    var isDead: Bool { state == UInt8(ascii: "Z") || state == UInt8(ascii: "X") }

    /// The stat of `pid`, or `nil` when there is no such process.
    static func read(_ pid: pid_t) -> ProcessStat? {
        guard let file = try? FileDescriptor.open("/proc/\(pid)/stat", O_RDONLY) else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = file.closeAfter { (try? $0.read(into: &buffer)) ?? 0 }
        guard count > 0 else { return nil }
        return parse(buffer[..<count])
    }

    /// Every process on the system (those that vanish while listed are skipped).
    static func all() -> [(pid_t, ProcessStat)] {
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var result: [(pid_t, ProcessStat)] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let pid = pid_t(name), let stat = read(pid) else { continue }
            result.append((pid, stat))
        }
        return result
    }

    /// Parses `pid (comm) state ppid ...`; the command name may hold spaces
    /// and parentheses, so the fields are counted from the last `)`.
    static func parse(_ bytes: ArraySlice<UInt8>) -> ProcessStat? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        // After the name: field 3 (state) is at 0, 4 (ppid) at 1, 22 (starttime) at 19.
        guard fields.count > 19, let state = fields[0].first,
            let parent = pid_t(String(decoding: fields[1], as: UTF8.self)),
            let startTime = UInt64(String(decoding: fields[19], as: UTF8.self))
        else { return nil }
        return ProcessStat(state: state, parent: parent, startTime: startTime)
    }
}
