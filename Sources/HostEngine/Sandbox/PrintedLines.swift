/// What a presenter process prints, as log entries: cut into lines of at
/// most ``PresenterProcess/maxOutputLine`` bytes (a longer one is cut and
/// marked), at most ``PresenterProcess/maxOutputLines`` of them (the rest
/// counted), one partial line kept. Fed on the output pump's queue;
/// ``finish()`` after the pump finished.
final class PrintedLines {
    private let presenterId: String
    private let output: @Sendable (PresenterLogEntry) -> Void
    private var pending: [UInt8] = []
    private var cut = false
    private var lines = 0
    private var dropped = 0

    init(presenterId: String, output: @escaping @Sendable (PresenterLogEntry) -> Void) {
        self.presenterId = presenterId
        self.output = output
    }

    func append(_ bytes: [UInt8]) {
        var rest = bytes[...]
        while !rest.isEmpty {
            let newline = rest.firstIndex(of: UInt8(ascii: "\n"))
            let piece = rest[..<(newline ?? rest.endIndex)]
            let room = max(0, PresenterProcess.maxOutputLine - pending.count)
            pending.append(contentsOf: piece.prefix(room))
            if piece.count > room { cut = true }
            guard let newline else { break }
            emit()
            rest = rest[(newline + 1)...]
        }
    }

    /// The last line, if it had no newline, and the count of those dropped.
    func finish() {
        if !pending.isEmpty { emit() }
        if dropped > 0 {
            output(
                PresenterLogEntry(
                    level: .warning, presenterId: presenterId,
                    message: "printed \(dropped) more lines, not shown"))
            dropped = 0
        }
    }

    private func emit() {
        defer {
            pending.removeAll(keepingCapacity: true)
            cut = false
        }
        guard lines < PresenterProcess.maxOutputLines else {
            dropped += 1
            return
        }
        lines += 1
        output(
            PresenterLogEntry(
                level: .warning, presenterId: presenterId,
                message: "printed: " + String(decoding: pending, as: UTF8.self) + (cut ? " [cut]" : "")))
    }
}
