import Foundation
import HostPlugins
import PresenterABI
@testable import HostText
@testable import HostEngine
import Testing

/// The presenter protocol's bytes, and the drawing that crosses it.
@Suite("The sandbox: protocol and drawing")
struct SandboxProtocolTests {
    static let interactor = InteractorSnapshot(
        id: 7, type: "GetWebTitleInteractor", action: "get-title", progress: 0.25)
    /// One with ABI 1.4's timing: every value crosses the channel as it is.
    static let timedInteractor = InteractorSnapshot(
        id: 8, type: "command", action: "run", progress: 0.42, message: "Copying",
        timing: InteractorTiming(startedAt: 123_456_789, done: 42, total: 100, rate: 2.5, secondsLeft: 23.2))
    static let geometry = ViewGeometry(cols: 79, rows: 5, flags: 0x5)

    static let requests: [PresenterMessage.Request] = [
        .configure(options: ["min-show-ms": "500", "grace-ms": "0"], geometry: geometry),
        .load(files: [
            .init(path: "/a/libMBHud.so", presenters: [.init(index: 0, id: "mbhud"), .init(index: 2, id: "tp")]),
            .init(path: "/b/lib é.so", presenters: []),
        ]),
        .attach(view: 3, chain: [1, 0], elements: ["get-title-button", "activity-indicator"]),
        .show(view: 3, message: "Saving bookmark...", interactor: interactor),
        .hide(view: 3, message: nil, interactor: interactor, failure: nil),
        .hide(
            view: 3, message: "✖ An error", interactor: interactor,
            failure: InteractorError(code: -3, domain: "http", message: "HTTP 500", isValidation: true)),
        .progress(view: 3, interactor: interactor),
        .progress(view: 3, interactor: timedInteractor),
        .hide(view: 3, message: "Done", interactor: timedInteractor, failure: nil),
        .render(view: 3, now: .max, final: false),
        .render(view: 3, now: 7, final: true),
        .key(view: 3, code: 0x1F600),
        .geometry(geometry),
        .detach(view: 3),
    ]

    @Test func everyRequestComesBackAsItWasSent() throws {
        for (index, request) in Self.requests.enumerated() {
            let body = PresenterMessage.encode(request, sequence: UInt32(index + 1), clock: 42)
            let (decoded, sequence, clock) = try PresenterMessage.decodeRequest(body)
            #expect(decoded == request)
            #expect(sequence == UInt32(index + 1) && clock == 42)
        }
    }

    /// Timing that is no number (NaN, infinite, negative) reaches the
    /// presenter as unknown (-1), never as the bytes said.
    @Test func timingThatIsNoNumberArrivesUnknown() throws {
        var interactor = Self.timedInteractor
        interactor.timing.done = .nan
        interactor.timing.total = .infinity
        interactor.timing.rate = -.infinity
        interactor.timing.secondsLeft = -0.5
        let body = PresenterMessage.encode(.progress(view: 3, interactor: interactor), sequence: 1, clock: 0)
        guard case .progress(_, let decoded) = try PresenterMessage.decodeRequest(body).0 else {
            Issue.record("not a progress request")
            return
        }
        #expect(
            decoded.timing == InteractorTiming(startedAt: 123_456_789, done: -1, total: -1, rate: -1, secondsLeft: -1))
    }

    static let incoming: [PresenterMessage.Incoming] = [
        .notice(.hello(version: PresenterMessage.version, sandbox: "privileges\ton\tno new privileges")),
        .notice(.log(PresenterLogEntry(level: .warning, presenterId: "mbhud", message: "no room"))),
        .notice(.log(PresenterLogEntry(level: .debug, presenterId: nil, message: ""))),
        .notice(.element(view: 1, name: "activity-indicator", operation: PRESENTER_ELEMENT_START_ANIMATING)),
        .reply(.init(sequence: 1, result: .done, frameRequests: [:])),
        .reply(
            .init(
                sequence: 2, result: .refused(.file(path: "/a/lib é.so", .dlopen("cannot load"))),
                frameRequests: [1: 5, 2: .max])),
        .reply(.init(sequence: 2, result: .refused(.presenter(path: "/a/libtp.so", id: "tp")), frameRequests: [:])),
        .reply(.init(sequence: 2, result: .loaded(handles: [0, 1, 7]), frameRequests: [:])),
        .reply(
            .init(sequence: 3, result: .createFailed(presenterId: "tp", status: 4, message: nil), frameRequests: [:])),
        .reply(
            .init(
                sequence: 4, result: .outcome(HookOutcome(status: 1, hook: .show, presenterId: "mbhud", message: "x")),
                frameRequests: [3: 100])),
        .reply(
            .init(
                sequence: 5,
                result: .drawing([
                    .box(col: -1, row: 0, cols: 20, rows: 3, style: 0x16),
                    .text(col: 2, row: 1, maxColumns: 9, style: 0, text: "⠋ 日本"),
                    .cycle(
                        Cycle(
                            frames: [
                                .init(col: 3, row: 1, maxColumns: 1, text: "⠋"),
                                .init(col: 0, row: 0, maxColumns: 0, text: ""),
                            ], start: 1_000, interval: 80_000_000, style: 6)),
                ]),
                frameRequests: [:])),
        .reply(.init(sequence: 6, result: .keyUsed(true), frameRequests: [:])),
        .reply(.init(sequence: 7, result: .outcome(HookOutcome.ok), frameRequests: [:])),
    ]

    @Test func everyMessageOfThePresenterProcessComesBackAsItWasSent() throws {
        for message in Self.incoming {
            let body: [UInt8]
            switch message {
            case .notice(let notice): body = PresenterMessage.encode(notice)
            case .reply(let reply): body = PresenterMessage.encode(reply)
            }
            #expect(try PresenterMessage.decodeIncoming(body) == message)
        }
    }

    @Test func framesArriveWholeHoweverTheBytesAreCut() throws {
        let bodies = Self.incoming.compactMap { message -> [UInt8]? in
            guard case .reply(let reply) = message else { return nil }
            return PresenterMessage.encode(reply)
        }
        let stream = bodies.flatMap(MessageCoding.frame)
        for chunk in [1, 3, 7, 64, stream.count] {
            var buffer = FrameBuffer()
            var received: [[UInt8]] = []
            var offset = 0
            while offset < stream.count {
                let end = min(offset + chunk, stream.count)
                stream[offset..<end].withUnsafeBytes { buffer.append($0) }
                while let body = try buffer.next() { received.append(body) }
                offset = end
            }
            #expect(received == bodies, "chunks of \(chunk)")
            #expect(buffer.isEmpty)
        }
    }

    @Test func aFrameLongerThanAllowedIsRefusedBeforeItArrives() {
        var buffer = FrameBuffer()
        ([0x01, 0x00, 0x10, 0x00] as [UInt8]).withUnsafeBytes { buffer.append($0) }  // 1 MiB + 1
        #expect(throws: MessageError("a message of 1048577 bytes, more than the 1048576 allowed")) { try buffer.next() }
    }

    /// A refusal of a file comes as the loader's record, checked as a scan
    /// helper's: words with a control character in them, or what only the
    /// host finds (here, that no helper scanned it), are no message of the
    /// protocol, so the presenter process cannot put words on the terminal.
    @Test func aRefusalIsTheLoadersRecordOrNoMessage() throws {
        func refusal(_ failure: PluginLoadFailure) throws -> [UInt8] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            var writer = MessageWriter()
            writer.u8(103); writer.u32(2); writer.u8(1); writer.u8(0)
            writer.string("/p/libevil.so")
            writer.data(Array("X\t".utf8) + Array(try encoder.encode(failure)))
            writer.u32(0)
            return writer.bytes
        }
        let fair = PluginLoadFailure.dlopen("libz.so.9: cannot open shared object file")
        #expect(
            try PresenterMessage.decodeIncoming(refusal(fair))
                == .reply(.init(sequence: 2, result: .refused(.file(path: "/p/libevil.so", fair)), frameRequests: [:])))
        #expect(
            throws: MessageError("a refusal that is not the loader's (\(PluginLoadFailure.ReportProblem.failureText))")
        ) {
            try PresenterMessage.decodeIncoming(refusal(.dlopen("\u{1B}[41mEVIL")))
        }
        #expect(
            throws: MessageError("a refusal that is not the loader's (\(PluginLoadFailure.ReportProblem.hostFinding))")
        ) {
            try PresenterMessage.decodeIncoming(refusal(.unscanned))
        }
    }

    /// An outcome names its hook, and a drawing each operation, by the
    /// protocol's names and tags: another one is no message of it.
    @Test func anUnknownHookOrDrawingOperationIsRefused() throws {
        let outcome = PresenterMessage.encode(
            PresenterMessage.Reply(
                sequence: 1, result: .outcome(HookOutcome(status: 1, hook: .show, presenterId: "p", message: nil)),
                frameRequests: [:]))
        let shew = Array(String(decoding: outcome, as: UTF8.self).replacing("show", with: "shew").utf8)
        #expect(shew.count == outcome.count)
        #expect(throws: MessageError("an outcome of an unknown hook")) { try PresenterMessage.decodeIncoming(shew) }

        let drawing = PresenterMessage.encode(
            PresenterMessage.Reply(
                sequence: 1, result: .drawing([.box(col: 0, row: 0, cols: 1, rows: 1, style: 0)]), frameRequests: [:]))
        // The body ends with the operation (its tag, then five 32-bit
        // fields) and the frame requests (a count of none).
        var unknown = drawing
        #expect(unknown[unknown.count - 25] == 1)
        unknown[unknown.count - 25] = 3
        #expect(throws: MessageError("an unknown drawing operation 3")) { try PresenterMessage.decodeIncoming(unknown) }
    }

    @Test func everyCutShortMessageIsAnErrorNeverACrash() throws {
        // Every prefix of every valid message, and every message with a byte
        // too many, fails to decode with an error.
        for message in Self.incoming {
            let body: [UInt8]
            switch message {
            case .notice(let notice): body = PresenterMessage.encode(notice)
            case .reply(let reply): body = PresenterMessage.encode(reply)
            }
            for length in 0..<body.count {
                #expect(throws: MessageError.self) { try PresenterMessage.decodeIncoming(Array(body.prefix(length))) }
            }
            #expect(throws: MessageError("1 bytes after the end of a message")) {
                try PresenterMessage.decodeIncoming(body + [0])
            }
        }
        // A count that the bytes left cannot hold fails at once, without allocating for it.
        var writer = MessageWriter()
        writer.u8(103); writer.u32(1); writer.u8(4); writer.u32(.max)
        #expect(throws: MessageError("a list of 4294967295 items in a message too short for it")) {
            try PresenterMessage.decodeIncoming(writer.bytes)
        }
    }

    @Test func randomBytesAreRefusedOrDecodedNeverACrash() {
        var generator = SeededGenerator(seed: 6)
        var decoded = 0
        for _ in 0..<20_000 {
            let length = Int(generator.next() % 64)
            var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            if !bytes.isEmpty { bytes[0] = [100, 101, 102, 103][Int(generator.next() % 4)] }
            // A hello (version 2) whose sandbox text fills the rest: the
            // bytes after the kind and the lengths are still random.
            if bytes.count >= 9 && bytes[0] == 100 && generator.next() % 2 == 0 {
                bytes.replaceSubrange(1..<9, with: [2, 0, 0, 0, UInt8(bytes.count - 9), 0, 0, 0])
            }
            if (try? PresenterMessage.decodeIncoming(bytes)) != nil { decoded += 1 }
        }
        #expect(decoded > 0)  // some random bytes are valid messages: the decoder was exercised past the kind
    }

    /// Recording a text and replaying it draws exactly what drawing it
    /// directly draws, and the service returns the same width, for
    /// random text (wide, combining, control characters) at random places.
    @Test func aRecordedTextDrawsWhatTheTextDrawsDirectly() {
        var generator = SeededGenerator(seed: 11)
        let pieces = [
            "a", "Z", " ", "日", "本", "🎉", "👨‍👩‍👧", "e\u{301}", "\u{1B}", "\n", "…", "ｗ", "\u{200D}", "🇫🇷", "x",
            "\u{200B}", "🏽", "🇯", "🇵", "\u{FFFD}", "\u{301}",
        ]
        for round in 0..<3_000 {
            let text = (0..<Int(generator.next() % 30)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))]
            }.joined()
            let col = Int32(Int(generator.next() % 120) - 40)
            let row = Int32(Int(generator.next() % 8) - 2)
            let maxColumns = [UInt32.max, 0, 1, 2, 3, 10, 80][Int(generator.next() % 7)]
            let unicode = round % 2 == 0
            let geometry = ViewGeometry(cols: 40, rows: 5, flags: unicode ? UInt32(PRESENTER_VIEW_UNICODE) : 0)
            let ellipsis = unicode ? DisplayWidth.unicodeEllipsis : DisplayWidth.asciiEllipsis
            var direct = Canvas(cols: 40, rows: 5)
            let width = direct.drawText(
                text, col: Int(col), row: Int(row), maxColumns: Int(min(maxColumns, UInt32(Int32.max))),
                ellipsis: ellipsis)
            let (operation, recordedWidth) = DrawOperation.text(
                text, col: col, row: row, maxColumns: maxColumns, style: 0,
                geometry: geometry)
            var replayed = Canvas(cols: 40, rows: 5)
            operation?.draw(on: &replayed, unicode: unicode)
            #expect(replayed == direct, "\(text.debugDescription) at \(col),\(row) in \(maxColumns)")
            #expect(recordedWidth == width)
            if case .text(_, _, _, _, let kept)? = operation { #expect(DisplayWidth.of(kept) <= 42 as Int) }
        }
    }

    /// A cycle in a reply keeps draw_cycle's rules: 1 to 64 texts, each
    /// shown at least 1 ms. Anything else is a broken message.
    @Test func aCycleOutsideDrawCyclesRulesIsRefused() throws {
        let frame = Cycle.Frame(col: 0, row: 0, maxColumns: 1, text: "x")
        for (frames, interval) in [(0, UInt64(80_000_000)), (65, 80_000_000), (2, 999_999), (2, 0)] {
            let cycle = Cycle(
                frames: Array(repeating: frame, count: frames), start: 0, interval: interval, style: 0)
            let body = PresenterMessage.encode(
                PresenterMessage.Reply(sequence: 1, result: .drawing([.cycle(cycle)]), frameRequests: [:]))
            #expect(
                throws: MessageError("a cycle of \(frames) texts every \(interval) ns"),
                "\(frames) texts every \(interval) ns"
            ) { try PresenterMessage.decodeIncoming(body) }
        }
    }

    /// draw_cycle records each text as draw_text would, and refuses a call
    /// outside its rules; the text shown follows the clock.
    @Test func aCycleRecordsEachTextAndShowsTheOneDue() throws {
        let geometry = ViewGeometry(cols: 10, rows: 2, flags: UInt32(PRESENTER_VIEW_UNICODE))
        func record(_ texts: [String], col: Int32 = 0, interval: UInt64 = 100) -> (DrawOperation?, Int) {
            DrawOperation.cycle(
                texts, col: col, row: 1, maxColumns: 4, style: 0, start: 1_000, interval: interval * 1_000_000,
                geometry: geometry)
        }
        #expect(record([]).0 == nil)
        #expect(record(Array(repeating: "x", count: 65)).0 == nil)
        #expect(record(["a", "b"], interval: 0).0 == nil)
        #expect(record(["a", "b"], col: 10).0 == nil)  // no text shows
        let (operation, width) = record(["a", "日本語です", "\u{1B}c"])
        #expect(width == 3)  // the widest: "日…", cut to 4 columns with its ellipsis
        let cycle = try #require(operation)
        #expect(cycle.nextChange(after: 0) == 100_001_000)  // the first text shows from before its start
        #expect(cycle.nextChange(after: 1_000) == 100_001_000)
        #expect(cycle.nextChange(after: 250_001_000) == 300_001_000)
        var lines: [String] = []
        for time: UInt64 in [0, 100_001_000, 200_001_000, 300_001_000] {
            var canvas = Canvas(cols: 10, rows: 2)
            cycle.draw(on: &canvas, unicode: true, at: time)
            lines.append(canvas.lines()[1])
        }
        #expect(lines == ["a", "日…", "c", "a"])
        // One text never changes: no frame for it.
        #expect(record(["a"]).0?.nextChange(after: 0) == nil)
    }

    /// A render of as many cycles of 64 texts as it may draw still fits
    /// one message of the presenter protocol: each text's place counts
    /// against the render's budget, not its bytes of text alone.
    @Test func aRenderOfManyCyclesFitsOneMessage() throws {
        let recorder = Recorder([
            "p": PresenterScript(cycle: (0..<64).map { "\($0 % 10)" }, cycleCopies: 5_000)
        ])
        let engine = LocalPresenterEngine(
            options: ["recorder": recorder.key], clock: ManualClock(), geometry: Self.geometry,
            tracing: false, loader: recorder.loader, isEngineThread: { true })
        try engine.attach(1, chain: try recorder.registry.resolve("p"), elements: [])
        _ = engine.show(1, message: "x", interactor: Self.interactor)
        let drawing = engine.render(1, at: 2_000_000_000)
        #expect(drawing.count > 100, "\(drawing.count) cycles kept")
        let body = PresenterMessage.encode(
            PresenterMessage.Reply(sequence: 1, result: .drawing(drawing), frameRequests: [:]))
        #expect(body.count <= MessageCoding.maxBody, "\(body.count) bytes")
        engine.detach(1)
    }

    @Test func aHugeBoxIsClippedAtOnce() {
        var canvas = Canvas(cols: 80, rows: 5)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            DrawOperation.box(col: -30_000, row: -30_000, cols: .max, rows: .max, style: 0).draw(
                on: &canvas, unicode: true)
        }
        #expect(elapsed < .seconds(1))
        let blank = canvas.lines().allSatisfy { $0.isEmpty }
        #expect(blank)  // all of it inside the box, blanked
        DrawOperation.box(col: 70, row: 3, cols: 100, rows: 100, style: 0).draw(on: &canvas, unicode: true)
        #expect(canvas.lines()[3].hasSuffix("╭─────────"))
    }
}
