/// Finds the OSC 9;4 progress sequences (ConEmu's, which Windows Terminal,
/// cargo, winget and systemd use) in a command's output, takes them out and
/// turns them into reports; every other byte passes through unchanged and in
/// order. A sequence may be cut across chunks: its start is held back until
/// it completes or turns out to be something else (then it passes as is).
///
/// `ESC ] 9 ; 4 ; <state> [; <percent>] (BEL | ESC \)`:
/// state 1 sets the percentage; 2 (error) and 4 (paused) set it when given;
/// 0 (remove) and 3 (indeterminate) make it unknown again.
package struct TerminalProgressFilter {
    private static let introducer = Array("\u{1B}]9;4;".utf8)
    /// Longer than any well-formed sequence: something else.
    private static let longest = 32
    private static let escape: UInt8 = 0x1B

    /// Bytes of a sequence that may be one of ours, not passed on yet.
    private var held: [UInt8] = []

    package init() {}

    /// Passes `bytes` on: returns the output without the progress sequences
    /// and the reports they made, in order.
    package mutating func filter(_ bytes: [UInt8]) -> (output: [UInt8], reports: [ProgressReport]) {
        // The common case: no escape anywhere, nothing held.
        if held.isEmpty && !bytes.contains(Self.escape) { return (bytes, []) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + held.count)
        var reports: [ProgressReport] = []
        for byte in bytes {
            if held.isEmpty {
                if byte == Self.escape { held.append(byte) } else { output.append(byte) }
                continue
            }
            held.append(byte)
            switch step() {
            case .pending:
                break
            case .foreign:
                // Not ours: pass it on, but a new ESC may begin one.
                if byte == Self.escape {
                    output.append(contentsOf: held.dropLast())
                    held = [byte]
                } else {
                    output.append(contentsOf: held)
                    held = []
                }
            case .complete(let report):
                if let report { reports.append(report) }
                held = []
            }
        }
        return (output, reports)
    }

    /// What is still held back (at the end of the output): passed on as is.
    package mutating func flush() -> [UInt8] {
        defer { held = [] }
        return held
    }

    private enum Step {
        case pending
        case foreign
        /// A whole sequence; `nil` when its state is one we do not know.
        case complete(ProgressReport?)
    }

    /// Where `held` stands after its last byte.
    private func step() -> Step {
        let count = held.count
        if count <= Self.introducer.count {
            return held.elementsEqual(Self.introducer.prefix(count)) ? .pending : .foreign
        }
        let last = held[count - 1]
        let bodyEnd: Int
        switch last {
        case 0x07:
            bodyEnd = count - 1
        case UInt8(ascii: "\\") where held[count - 2] == Self.escape:
            bodyEnd = count - 2
        case Self.escape:
            return count < Self.longest ? .pending : .foreign
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ";"):
            return held[count - 2] == Self.escape || count >= Self.longest ? .foreign : .pending
        default:
            return .foreign
        }
        let body = held[Self.introducer.count..<bodyEnd]
        guard !body.contains(Self.escape) else { return .foreign }
        return .complete(Self.report(String(decoding: body, as: UTF8.self)))
    }

    /// The report of `<state>[;<percent>]`.
    private static func report(_ parameters: String) -> ProgressReport? {
        let parts = parameters.split(separator: ";", omittingEmptySubsequences: false)
        guard let state = parts.first.flatMap({ Int($0) }) else { return nil }
        let percent = parts.count > 1 ? Int(parts[1]).map { Double(min(max($0, 0), 100)) / 100 } : nil
        switch state {
        case 0, 3: return ProgressReport(fraction: -1)
        case 1: return ProgressReport(fraction: percent ?? 0)
        case 2, 4: return percent.map { ProgressReport(fraction: $0) } ?? ProgressReport()
        default: return nil
        }
    }
}
