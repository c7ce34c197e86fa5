// The fuzz target for /proc/PID/stat (`scripts/fuzz --target proc-stat`),
// read by ProcessStat.parse for every process of the tree of the command
// run: its `comm` (the second field, in parentheses) is the name the
// command's processes give themselves, any bytes (up to 15 in a real
// file), `)`, spaces and newlines included.
//
// The input is parsed as a whole stat file (it must not crash). Then its
// bytes make a well-formed line: byte 0 % 64 is the length of the comm
// that follows; the next byte picks the state letter, the next 8 the ppid
// and the start time. Checked on every input: that line parses to that
// state, ppid and start time, whatever the comm holds.

#if canImport(Glibc)
    import Glibc
#endif
#if !PRESENTER_FUZZ
    @testable import HostSystem
#endif

enum ProcessStatFuzz {
    static let states = Array("RSDTtZXIPWK".utf8)

    static func run(_ input: [UInt8]) {
        _ = ProcessStat.parse(input[...])
        guard let first = input.first else { return }
        let comm = input.dropFirst().prefix(Int(first % 64))
        var rest = input.dropFirst(1 + comm.count).makeIterator()
        let state = states[Int(rest.next() ?? 0) % states.count]
        func number(_ bytes: Int) -> UInt64 {
            (0..<bytes).reduce(0) { value, _ in value << 8 | UInt64(rest.next() ?? 0) }
        }
        let parent = pid_t(truncatingIfNeeded: number(4) & 0x7FFF_FFFF)
        let startTime = number(4)
        // Fields 4 to 52: the ppid, 17 others, the start time (22), 30 more.
        let fields = ["\(parent)"] + (5...21).map(String.init) + ["\(startTime)"] + (23...52).map(String.init)
        let line =
            Array("4242 (".utf8) + comm + Array(") ".utf8) + [state] + Array(" \(fields.joined(separator: " "))\n".utf8)
        guard let stat = ProcessStat.parse(line[...]) else {
            fuzzFailure("a well-formed line is refused: \(fuzzText(line).debugDescription)")
        }
        guard stat.state == state, stat.parent == parent, stat.startTime == startTime else {
            fuzzFailure("\(fuzzText(line).debugDescription) parsed as \(stat)")
        }
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        let comms = ["sleep", "a) R 1 2 3", "two words", "new\nline", ")", "((", "tmux: server", "x) Z 99 (y"]
        var seeds = comms.enumerated().map { index, comm in
            ("comm-\(index)", [UInt8(comm.utf8.count)] + Array(comm.utf8) + [1, 0, 0, 4, 210, 0, 1, 226, 64])
        }
        seeds.append(
            (
                "real",
                Array(
                    "12345 (bash) S 1 12345 12345 34816 12399 4194304 3 0 0 0 1 0 0 0 20 0 1 0 9876 8 2 18446744073709551615 1 1 0 0 0 0 65536 3670020 1266777851 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
                        .utf8)
            ))
        return seeds
    }
}
