// The fuzz target for what a presenter process can send the host
// (`scripts/fuzz --target presenter`; see FuzzTarget).
//
// Input layout (any bytes are valid input):
//
//   byte 0      how the payload is fed to FrameBuffer (see `chunks`)
//   byte 1      selects `col` of the draw_text recording (see `pickInt`)
//   byte 2      selects `row`
//   byte 3      selects `maxColumns` (see `pickCount`)
//   byte 4...   the payload: a stream of frames (u32 LE length + body)
//
// For each input:
//  1. the payload goes to a FrameBuffer in one or several chunks; each body
//     it gives back goes to PresenterMessage.decodeIncoming, and a reply
//     with a drawing is replayed on an 80x5 canvas, Unicode and ASCII.
//     Each body also goes to decodeRequest (the other direction).
//  2. the whole payload goes to decodeRequest as one body.
//  3. the payload, as UTF-8 text, goes through DrawOperation.text on an
//     80x5 Unicode view, and the recorded operation is replayed.
// Thrown MessageErrors are the expected answer to bad bytes.
//
// With oracles (scripts/fuzz --oracles, and always in the replay test) it
// also checks properties, not just crashes and hangs:
//  - FrameBuffer gives the same bodies however the bytes are chunked (and
//    the same as a plain one-pass split);
//  - whatever decodes re-encodes to bytes that decode to the same message;
//  - replaying a recorded draw_text paints what drawing the original text
//    on the canvas paints, and the width returned is the same.

import Foundation
#if !PRESENTER_FUZZ
    import HostPlugins
    @testable import HostText
    @testable import HostEngine
#endif

enum PresenterFuzz {
    static func run(_ input: [UInt8], oracles: Bool) {
        let size = input.count
        let control = size > 0 ? input[0] : 0
        let colSelector = size > 1 ? input[1] : 0
        let rowSelector = size > 2 ? input[2] : 0
        let maxColumnsSelector = size > 3 ? input[3] : 0
        let payload = Array(input.dropFirst(4))

        // 1. Frames, as the host reads them from the channel.
        let bodies = feedFrames(payload, control: control)
        for body in bodies { handleBody(body, oracles: oracles) }
        if oracles { checkFraming(payload, control: control, bodies: bodies) }

        // 2. The whole payload as a request body.
        if let decoded = try? PresenterMessage.decodeRequest(payload), oracles {
            checkRequestRoundTrip(decoded)
        }

        // 3. The payload as the text of a draw_text call.
        let text = String(decoding: payload, as: UTF8.self)
        let col = pickInt(colSelector), row = pickInt(rowSelector), maxColumns = pickCount(maxColumnsSelector)
        let style = UInt32(control)
        for flags: UInt32 in oracles ? [1, 0] : [1] {
            let geometry = ViewGeometry(cols: 80, rows: 5, flags: flags)
            let (operation, drawn) = DrawOperation.text(
                text, col: col, row: row, maxColumns: maxColumns, style: style,
                geometry: geometry)
            var replayed = Canvas(cols: 80, rows: 5)
            operation?.draw(on: &replayed, unicode: geometry.isUnicode)
            _ = replayed.lines()
            if oracles {
                checkTextRecording(
                    text, col: col, row: row, maxColumns: maxColumns, style: style, geometry: geometry,
                    operation: operation, drawn: drawn, replayed: replayed)
            }
        }
    }
}

// MARK: - Framing

/// Feeds `payload` to a FrameBuffer the way `control` says and returns the
/// bodies it gave back, up to the first error (where the host would stop).
///
/// `control & 3`: 0 one chunk; 1 one byte at a time; 2 chunks of
/// `control >> 2 + 1` bytes; 3 pseudo-random chunk sizes seeded by `control`.
private func feedFrames(_ payload: [UInt8], control: UInt8) -> [[UInt8]] {
    var buffer = FrameBuffer()
    var bodies: [[UInt8]] = []
    for chunk in chunks(of: payload.count, control: control) {
        payload.withUnsafeBytes { buffer.append(UnsafeRawBufferPointer(rebasing: $0[chunk])) }
        do {
            while let body = try buffer.next() { bodies.append(body) }
        } catch {
            return bodies
        }
    }
    return bodies
}

private func chunks(of count: Int, control: UInt8) -> [Range<Int>] {
    var ranges: [Range<Int>] = []
    var start = 0
    var state = UInt32(control) &* 2654435761 | 1
    while start < count {
        let size: Int
        switch control & 3 {
        case 0: size = count
        case 1: size = 1
        case 2: size = Int(control >> 2) + 1
        default:
            state = state &* 1103515245 &+ 12345
            size = Int((state >> 16) % UInt32(Int(control >> 2) * 4 + 2)) + 1
        }
        let end = min(count, start + size)
        ranges.append(start..<end)
        start = end
    }
    return ranges
}

private func handleBody(_ body: [UInt8], oracles: Bool) {
    if let incoming = try? PresenterMessage.decodeIncoming(body) {
        if case .reply(let reply) = incoming, case .drawing(let operations) = reply.result {
            replay(operations)
        }
        if oracles { checkIncomingRoundTrip(incoming) }
    }
    if let decoded = try? PresenterMessage.decodeRequest(body), oracles {
        checkRequestRoundTrip(decoded)
    }
}

/// What the runtime does with a presenter process's drawing (Screenlet).
private func replay(_ operations: [DrawOperation]) {
    for unicode in [true, false] {
        var canvas = Canvas(cols: 80, rows: 5)
        for operation in operations { operation.draw(on: &canvas, unicode: unicode) }
        _ = canvas.lines()
    }
}

// MARK: - Text parameters

/// A byte as a coordinate: mostly small values around the view, sometimes
/// the extremes.
private func pickInt(_ byte: UInt8) -> Int32 {
    let extremes: [Int32] = [
        .min, .min + 1, .min + 79, -65536, -65535, -4096, -1000, -81, -80, -79, -3, -2, -1, 0, 1, 2,
        3, 4, 5, 6, 78, 79, 80, 81, 4095, 4096, 65535, 65536, .max - 80, .max - 1, .max, 1 << 30,
    ]
    return byte >= 0xE0 ? extremes[Int(byte - 0xE0)] : Int32(byte) - 0x20
}

/// A byte as a column count: mostly small, sometimes huge.
private func pickCount(_ byte: UInt8) -> UInt32 {
    let extremes: [UInt32] = [
        .max, .max - 1, UInt32(Int32.max), UInt32(Int32.max) + 1, UInt32(Int32.max) - 1, 1 << 16, 0xFFFF,
        4096, 4097, 1 << 20, 0, 1, 2, 3, 80, 81, 160,
    ]
    let index = Int(byte) - 0xE0
    return index >= 0 && index < extremes.count ? extremes[index] : UInt32(byte)
}

// MARK: - Oracles (PRESENTER_FUZZ_ORACLES=1)

private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

/// Bodies split from `payload` in one pass, as the format defines them.
private func referenceFrames(_ payload: [UInt8]) -> [[UInt8]] {
    var bodies: [[UInt8]] = []
    var offset = 0
    while payload.count - offset >= 4 {
        let length =
            Int(payload[offset]) | Int(payload[offset + 1]) << 8 | Int(payload[offset + 2]) << 16
            | Int(payload[offset + 3]) << 24
        guard length <= MessageCoding.maxBody, payload.count - offset - 4 >= length else { break }
        bodies.append(Array(payload[(offset + 4)..<(offset + 4 + length)]))
        offset += 4 + length
    }
    return bodies
}

private func checkFraming(_ payload: [UInt8], control: UInt8, bodies: [[UInt8]]) {
    let reference = referenceFrames(payload)
    guard bodies == reference else {
        fuzzFailure(
            "FrameBuffer with control \(control) gave \(bodies.count) bodies, a one-pass split \(reference.count)")
    }
    // The same stream many times over, so the buffer compacts (> 64 KiB read).
    guard !payload.isEmpty, !bodies.isEmpty else { return }
    let copies = 65536 / payload.count + 2
    var buffer = FrameBuffer()
    var count = 0
    let step = Int(control) % 7 + 1
    var stream: [UInt8] = []
    stream.reserveCapacity(copies * payload.count)
    for _ in 0..<copies { stream += payload }
    let all = referenceFrames(stream)
    var index = 0
    var offset = 0
    while offset < stream.count {
        let end = min(stream.count, offset + step * 997)
        stream.withUnsafeBytes { buffer.append(UnsafeRawBufferPointer(rebasing: $0[offset..<end])) }
        offset = end
        do {
            while let body = try buffer.next() {
                guard index < all.count, body == all[index] else {
                    fuzzFailure("FrameBuffer lost its place after compacting")
                }
                index += 1
                count += 1
            }
        } catch {
            break
        }
    }
    guard count == all.count else { fuzzFailure("FrameBuffer gave \(count) of \(all.count) bodies of a long stream") }
}

/// The cells that are not blank, as `col,row:"text"` (with the scalars).
private func cells(_ canvas: Canvas) -> String {
    var described: [String] = []
    for row in 0..<canvas.rows {
        for col in 0..<canvas.cols where canvas[col, row] != .blank {
            let cell = canvas[col, row]
            let scalars = cell.text.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }.joined(
                separator: " ")
            described.append("\(col),\(row):\"\(cell.text)\"[\(scalars)]")
        }
    }
    return "[" + described.joined(separator: " ") + "]"
}

private func encode(_ incoming: PresenterMessage.Incoming) -> [UInt8] {
    switch incoming {
    case .notice(let notice): return PresenterMessage.encode(notice)
    case .reply(let reply): return PresenterMessage.encode(reply)
    }
}

private func checkIncomingRoundTrip(_ incoming: PresenterMessage.Incoming) {
    let encoded = encode(incoming)
    let again: PresenterMessage.Incoming
    do {
        again = try PresenterMessage.decodeIncoming(encoded)
    } catch {
        fuzzFailure("a decoded message re-encoded to \(hex(encoded)), which does not decode: \(error)")
    }
    guard again == incoming else { fuzzFailure("\(incoming) re-encoded and decoded to \(again)") }
}

private func checkRequestRoundTrip(_ decoded: (PresenterMessage.Request, sequence: UInt32, clock: UInt64)) {
    // Bytes, not values: a NaN progress is not equal to itself.
    let encoded = PresenterMessage.encode(decoded.0, sequence: decoded.sequence, clock: decoded.clock)
    let again: (PresenterMessage.Request, sequence: UInt32, clock: UInt64)
    do {
        again = try PresenterMessage.decodeRequest(encoded)
    } catch {
        fuzzFailure("a decoded request re-encoded to \(hex(encoded)), which does not decode: \(error)")
    }
    let twice = PresenterMessage.encode(again.0, sequence: again.sequence, clock: again.clock)
    guard twice == encoded else {
        fuzzFailure("request \(decoded.0) re-encoded to \(hex(encoded)), then \(hex(twice))")
    }
}

private func checkTextRecording(
    _ text: String, col: Int32, row: Int32, maxColumns: UInt32, style: UInt32,
    geometry: ViewGeometry, operation: DrawOperation?, drawn: Int, replayed: Canvas
) {
    var direct = Canvas(cols: geometry.cols, rows: geometry.rows)
    let width = direct.drawText(
        text, col: Int(col), row: Int(row), maxColumns: Int(min(maxColumns, UInt32(Int32.max))),
        style: CellStyle(rawValue: style),
        ellipsis: geometry.isUnicode ? DisplayWidth.unicodeEllipsis : DisplayWidth.asciiEllipsis)
    guard width == drawn else { fuzzFailure("draw_text recorded \(drawn) columns, the canvas drew \(width)") }
    if case .text(_, _, let keptColumns, _, let kept)? = operation {
        guard kept.utf8.count <= DrawOperation.maxTextBytes else {
            fuzzFailure("a recorded text of \(kept.utf8.count) bytes")
        }
        guard keptColumns <= UInt32(geometry.cols) + 2 else {
            fuzzFailure("a recorded text \(keptColumns) columns wide")
        }
    }
    // Only comparable when the text is not cut short by maxTextBytes.
    guard text.utf8.count <= DrawOperation.maxTextBytes else { return }
    guard direct == replayed else {
        fuzzFailure(
            "replaying \(String(describing: operation)) paints \(cells(replayed)), drawing the text paints \(cells(direct))"
        )
    }
}

// MARK: - Seeds

extension PresenterFuzz {
    private static func frame(_ body: [UInt8]) -> [UInt8] { MessageCoding.frame(body) }

    /// Header bytes: control 0 (one chunk), col 0x20 (0), row 0x20 (0), maxColumns 80.
    private static func input(
        _ payload: [UInt8], control: UInt8 = 0, col: UInt8 = 0x20, row: UInt8 = 0x20,
        maxColumns: UInt8 = 80
    ) -> [UInt8] {
        [control, col, row, maxColumns] + payload
    }

    private static func reply(_ result: PresenterMessage.Result, _ requests: [ViewID: UInt64] = [:]) -> [UInt8] {
        PresenterMessage.encode(PresenterMessage.Reply(sequence: 7, result: result, frameRequests: requests))
    }

    static func seeds() -> [(String, [UInt8])] {
        let hello = PresenterMessage.encode(.hello(version: PresenterMessage.version, sandbox: "seccomp\ton\t"))
        let log = PresenterMessage.encode(
            .log(PresenterLogEntry(level: .warning, presenterId: "mbhud", message: "low\u{1B}[31m")))
        let element = PresenterMessage.encode(.element(view: 1, name: "status", operation: 2))
        let drawing = reply(
            .drawing([
                .text(col: 0, row: 0, maxColumns: 80, style: 0x12, text: "Downloading… 42%"),
                .text(col: 78, row: 1, maxColumns: 4, style: 0, text: "漢字🇯🇵"),
                .text(col: -1, row: 4, maxColumns: 10, style: 0x41, text: "e\u{301}👨‍👩‍👧"),
                .box(col: 2, row: 1, cols: 20, rows: 3, style: 0x04),
            ]), [1: 1_000_000, 2: 5])
        let hugeBox = reply(
            .drawing([
                .box(col: Int32.min, row: Int32.min, cols: .max, rows: .max, style: 0xFFFF_FFFF),
                .box(col: -5, row: -1, cols: 0xFFFF, rows: 0xFFFF, style: 0),
                .text(col: Int32.max, row: 0, maxColumns: .max, style: 0, text: String(repeating: "x", count: 100)),
            ]))
        let requests: [PresenterMessage.Request] = [
            .configure(options: ["a": "1", "color": "never"], geometry: ViewGeometry(cols: 80, rows: 5, flags: 1)),
            .load(files: [
                .init(path: "/usr/lib/presenters/libMBHud.so", presenters: [.init(index: 0, id: "mbhud")])
            ]),
            .attach(view: 1, chain: [0], elements: ["status"]),
            .show(
                view: 1, message: "Building", interactor: .init(id: 9, type: "command", action: "build", progress: -1)),
            .hide(
                view: 1, message: nil, interactor: .init(id: 9, type: "command", action: "build", progress: 0.5),
                failure: InteractorError(code: 2, domain: "process", message: "failed", isValidation: false)),
            .progress(
                view: 1,
                interactor: .init(
                    id: 9, type: "command", action: "build", progress: 0.42, message: "Copying",
                    timing: InteractorTiming(startedAt: 1_000, done: 42, total: 100, rate: 2.5, secondsLeft: 23.2))),
            .render(view: 1, now: 123_456_789, final: false),
            .render(view: 1, now: 123_456_790, final: true),
            .key(view: 1, code: 27),
        ]
        var seeds: [(String, [UInt8])] = [
            ("hello", input(frame(hello))),
            ("log", input(frame(log), control: 1)),
            ("element", input(frame(element), control: 2 | 3 << 2)),
            ("drawing", input(frame(drawing))),
            ("drawing-chunked", input(frame(drawing), control: 3 | 5 << 2, col: 0xE0, row: 0x21, maxColumns: 0xE0)),
            ("huge-box", input(frame(hugeBox), control: 0, col: 0xFE, row: 0x24, maxColumns: 0xE2)),
            ("refused", input(frame(reply(.refused(.presenter(path: "/p/libMBHud.so", id: "mbhud")))))),
            (
                "refused-file",
                input(frame(reply(.refused(.file(path: "/p/libMBHud.so", .dlopen("libz.so.9: not found"))))))
            ),
            ("loaded", input(frame(reply(.loaded(handles: [0, 1]))))),
            (
                "create-failed",
                input(frame(reply(.createFailed(presenterId: "mbhud", status: -3, message: "no memory"))))
            ),
            (
                "outcome",
                input(frame(reply(.outcome(HookOutcome(status: 0, hook: .show, presenterId: "mbhud", message: nil)))))
            ),
            ("key-used", input(frame(reply(.keyUsed(true), [3: 4])))),
            ("done", input(frame(reply(.done)))),
            (
                "session",
                input(
                    frame(hello) + frame(element) + frame(log) + frame(drawing) + frame(reply(.done)),
                    control: 3 | 2 << 2)
            ),
            (
                "text-unicode",
                input(
                    Array("Ünïcödé 漢字 🇯🇵🇺🇸 e\u{301} 👩🏽‍💻 ᄀ가 \u{200B}x\u{FE0F}♥\u{FE0F} tab\there".utf8),
                    col: 0x1E, row: 0x22, maxColumns: 60)
            ),
            (
                "text-invalid-utf8",
                input(
                    [0xFF, 0xC3, 0x28, 0xE2, 0x82, 0x41, 0xF0, 0x9F, 0x98] + Array("tail".utf8),
                    col: 0x6E, row: 0x20, maxColumns: 3)
            ),
        ]
        for (index, request) in requests.enumerated() {
            let body = PresenterMessage.encode(request, sequence: UInt32(index + 1), clock: 42)
            seeds.append(("request-\(index)", input(body)))
            seeds.append(("request-framed-\(index)", input(frame(body), control: 1)))
        }
        return seeds
    }
}
