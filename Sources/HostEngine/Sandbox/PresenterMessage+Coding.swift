import HostPlugins

// MARK: - Encoding

extension PresenterMessage {
    private enum Kind: UInt8 {
        case configure = 1, load, attach, show, hide, progress, render, key, geometry, detach
        case hello = 100, log, element, reply
    }

    private enum ResultTag: UInt8 { case done = 0, refused, createFailed, outcome, drawing, keyUsed, loaded }

    /// Which refusal follows in a refusal.
    fileprivate enum RefusalTag: UInt8 { case file = 0, presenter }

    /// Which drawing operation follows in a drawing.
    private enum DrawingTag: UInt8 { case text = 0, box, cycle }

    /// The body of `request` numbered `sequence`. `clock` is the host's time
    /// for `now_ns` during the request, or 0 for the monotonic clock.
    static func encode(_ request: Request, sequence: UInt32, clock: UInt64) -> [UInt8] {
        var writer = MessageWriter()
        func kind(_ kind: Kind) {
            writer.u8(kind.rawValue)
            writer.u32(sequence)
            writer.u64(clock)
        }
        switch request {
        case let .configure(options, geometry):
            kind(.configure)
            writer.array(options.sorted { $0.key < $1.key }) {
                $0.string($1.key); $0.string($1.value)
            }
            writer.geometry(geometry)
        case let .load(files):
            kind(.load)
            writer.array(files) { writer, file in
                writer.string(file.path)
                writer.array(file.presenters) {
                    $0.u32($1.index); $0.string($1.id)
                }
            }
        case let .attach(view, chain, elements):
            kind(.attach)
            writer.u32(view)
            writer.array(chain) { $0.u32($1) }
            writer.array(elements) { $0.string($1) }
        case let .show(view, message, interactor):
            kind(.show)
            writer.u32(view)
            writer.string(message)
            writer.interactor(interactor)
        case let .hide(view, message, interactor, failure):
            kind(.hide)
            writer.u32(view)
            writer.optionalString(message)
            writer.interactor(interactor)
            writer.bool(failure != nil)
            if let failure {
                writer.i64(failure.code)
                writer.string(failure.domain)
                writer.string(failure.message)
                writer.bool(failure.isValidation)
            }
        case let .progress(view, interactor):
            kind(.progress)
            writer.u32(view)
            writer.interactor(interactor)
        case let .render(view, now, final):
            kind(.render)
            writer.u32(view)
            writer.u64(now)
            writer.bool(final)
        case let .key(view, code):
            kind(.key)
            writer.u32(view)
            writer.u32(code)
        case let .geometry(geometry):
            kind(.geometry)
            writer.geometry(geometry)
        case let .detach(view):
            kind(.detach)
            writer.u32(view)
        }
        return writer.bytes
    }

    /// Reads a request body: the request, its number and its clock.
    static func decodeRequest(_ body: [UInt8]) throws(MessageError) -> (Request, sequence: UInt32, clock: UInt64) {
        var reader = MessageReader(body)
        guard let kind = Kind(rawValue: try reader.u8()) else { throw MessageError("an unknown request") }
        let sequence = try reader.u32()
        let clock = try reader.u64()
        let request: Request
        switch kind {
        case .configure:
            let pairs = try reader.array(minimumSize: 8) { reader throws(MessageError) in
                (try reader.string(), try reader.string())
            }
            request = .configure(
                options: Dictionary(pairs, uniquingKeysWith: { _, last in last }), geometry: try reader.geometry())
        case .load:
            request = .load(
                files: try reader.array(minimumSize: 8) { reader throws(MessageError) in
                    FileLoad(
                        path: try reader.string(),
                        presenters: try reader.array(minimumSize: 8) { reader throws(MessageError) in
                            Presenter(index: try reader.u32(), id: try reader.string())
                        })
                })
        case .attach:
            let view = try reader.u32()
            let chain = try reader.array(minimumSize: 4) { reader throws(MessageError) in try reader.u32() }
            request = .attach(
                view: view, chain: chain,
                elements: try reader.array(minimumSize: 4) { reader throws(MessageError) in try reader.string() })
        case .show:
            request = .show(view: try reader.u32(), message: try reader.string(), interactor: try reader.interactor())
        case .hide:
            let view = try reader.u32()
            let message = try reader.optionalString()
            let interactor = try reader.interactor()
            var failure: InteractorError?
            if try reader.bool() {
                failure = InteractorError(
                    code: try reader.i64(), domain: try reader.string(), message: try reader.string(),
                    isValidation: try reader.bool())
            }
            request = .hide(view: view, message: message, interactor: interactor, failure: failure)
        case .progress:
            request = .progress(view: try reader.u32(), interactor: try reader.interactor())
        case .render:
            request = .render(view: try reader.u32(), now: try reader.u64(), final: try reader.bool())
        case .key:
            request = .key(view: try reader.u32(), code: try reader.u32())
        case .geometry:
            request = .geometry(try reader.geometry())
        case .detach:
            request = .detach(view: try reader.u32())
        case .hello, .log, .element, .reply:
            throw MessageError("a message of the presenter process where a request was expected")
        }
        try reader.finish()
        return (request, sequence, clock)
    }

    /// The body of a notice.
    static func encode(_ notice: Notice) -> [UInt8] {
        var writer = MessageWriter()
        switch notice {
        case let .hello(version, sandbox):
            writer.u8(Kind.hello.rawValue)
            writer.u32(version)
            if version >= 2 { writer.string(sandbox) }  // version 1 said no more
        case .log(let entry):
            writer.u8(Kind.log.rawValue)
            writer.i32(entry.level.rawValue)
            writer.optionalString(entry.presenterId)
            writer.string(entry.message)
        case let .element(view, name, operation):
            writer.u8(Kind.element.rawValue)
            writer.u32(view)
            writer.string(name)
            writer.i32(operation)
        }
        return writer.bytes
    }

    /// The body of a reply.
    static func encode(_ reply: Reply) -> [UInt8] {
        var writer = MessageWriter()
        writer.u8(Kind.reply.rawValue)
        writer.u32(reply.sequence)
        switch reply.result {
        case .done:
            writer.u8(ResultTag.done.rawValue)
        case .loaded(let handles):
            writer.u8(ResultTag.loaded.rawValue)
            writer.array(handles) { $0.u32($1) }
        case .refused(.file(let path, let failure)):
            writer.u8(ResultTag.refused.rawValue)
            writer.u8(RefusalTag.file.rawValue)
            writer.string(path)
            writer.data(failure.record)
        case .refused(.presenter(let path, let id)):
            writer.u8(ResultTag.refused.rawValue)
            writer.u8(RefusalTag.presenter.rawValue)
            writer.string(path)
            writer.string(id)
        case let .createFailed(presenterId, status, message):
            writer.u8(ResultTag.createFailed.rawValue)
            writer.string(presenterId)
            writer.i32(status)
            writer.optionalString(message)
        case .outcome(let outcome):
            writer.u8(ResultTag.outcome.rawValue)
            writer.i32(outcome.status)
            writer.string(outcome.hook?.rawValue ?? "")
            writer.string(outcome.presenterId)
            writer.optionalString(outcome.message)
        case .drawing(let operations):
            writer.u8(ResultTag.drawing.rawValue)
            writer.array(operations) { writer, operation in
                switch operation {
                case let .text(col, row, maxColumns, style, text):
                    writer.u8(DrawingTag.text.rawValue)
                    writer.i32(col); writer.i32(row); writer.u32(maxColumns); writer.u32(style)
                    writer.string(text)
                case let .box(col, row, cols, rows, style):
                    writer.u8(DrawingTag.box.rawValue)
                    writer.i32(col); writer.i32(row); writer.u32(cols); writer.u32(rows); writer.u32(style)
                case .cycle(let cycle):
                    writer.u8(DrawingTag.cycle.rawValue)
                    writer.u64(cycle.start); writer.u64(cycle.interval); writer.u32(cycle.style)
                    writer.array(cycle.frames) { writer, frame in
                        writer.i32(frame.col); writer.i32(frame.row); writer.u32(frame.maxColumns)
                        writer.string(frame.text)
                    }
                }
            }
        case .keyUsed(let used):
            writer.u8(ResultTag.keyUsed.rawValue)
            writer.bool(used)
        }
        writer.array(reply.frameRequests.sorted { $0.key < $1.key }) {
            $0.u32($1.key); $0.u64($1.value)
        }
        return writer.bytes
    }

    /// Reads what the presenter process sent. Never trusts it: every count
    /// and length is checked, and anything that is not exactly one message
    /// is an error.
    static func decodeIncoming(_ body: [UInt8]) throws(MessageError) -> Incoming {
        var reader = MessageReader(body)
        let incoming: Incoming
        switch Kind(rawValue: try reader.u8()) {
        case .hello?:
            // Version 1 said no more; a mismatch is then named, not misread.
            let version = try reader.u32()
            incoming = .notice(.hello(version: version, sandbox: version >= 2 ? try reader.string() : ""))
        case .log?:
            let level = PresenterLogEntry.Level(abi: try reader.i32())
            incoming = .notice(
                .log(
                    PresenterLogEntry(
                        level: level, presenterId: try reader.optionalString(),
                        message: try reader.string())))
        case .element?:
            incoming = .notice(.element(view: try reader.u32(), name: try reader.string(), operation: try reader.i32()))
        case .reply?:
            let sequence = try reader.u32()
            let result: Result
            switch ResultTag(rawValue: try reader.u8()) {
            case .done?: result = .done
            case .loaded?:
                result = .loaded(
                    handles: try reader.array(minimumSize: 4) { reader throws(MessageError) in try reader.u32() })
            case .refused?: result = .refused(try reader.refusal())
            case .createFailed?:
                result = .createFailed(
                    presenterId: try reader.string(), status: try reader.i32(), message: try reader.optionalString())
            case .outcome?:
                result = .outcome(
                    HookOutcome(
                        status: try reader.i32(), hook: try Hook.named(try reader.string()),
                        presenterId: try reader.string(), message: try reader.optionalString()))
            case .drawing?:
                result = .drawing(
                    try reader.array(minimumSize: 17) { reader throws(MessageError) in
                        let tag = try reader.u8()
                        switch DrawingTag(rawValue: tag) {
                        case .text?:
                            return .text(
                                col: try reader.i32(), row: try reader.i32(), maxColumns: try reader.u32(),
                                style: try reader.u32(), text: try reader.string())
                        case .box?:
                            return .box(
                                col: try reader.i32(), row: try reader.i32(), cols: try reader.u32(),
                                rows: try reader.u32(),
                                style: try reader.u32())
                        case .cycle?:
                            let start = try reader.u64(), interval = try reader.u64(), style = try reader.u32()
                            let frames = try reader.array(minimumSize: 16) { reader throws(MessageError) in
                                Cycle.Frame(
                                    col: try reader.i32(), row: try reader.i32(), maxColumns: try reader.u32(),
                                    text: try reader.string())
                            }
                            guard Cycle.frameCounts.contains(frames.count), interval >= Cycle.minimumInterval else {
                                throw MessageError("a cycle of \(frames.count) texts every \(interval) ns")
                            }
                            return .cycle(Cycle(frames: frames, start: start, interval: interval, style: style))
                        case nil:
                            throw MessageError("an unknown drawing operation \(tag)")
                        }
                    })
            case .keyUsed?: result = .keyUsed(try reader.bool())
            case nil: throw MessageError("an unknown result")
            }
            let requests = try reader.array(minimumSize: 12) { reader throws(MessageError) in
                (try reader.u32(), try reader.u64())
            }
            incoming = .reply(
                Reply(
                    sequence: sequence, result: result,
                    frameRequests: Dictionary(requests, uniquingKeysWith: { first, _ in first })))
        default:
            throw MessageError("an unknown message")
        }
        try reader.finish()
        return incoming
    }
}

private extension MessageWriter {
    mutating func geometry(_ geometry: ViewGeometry) {
        u32(UInt32(clamping: geometry.cols))
        u32(UInt32(clamping: geometry.rows))
        u32(geometry.flags)
    }

    mutating func interactor(_ interactor: InteractorSnapshot) {
        u64(interactor.id)
        f64(interactor.progress)
        string(interactor.type)
        string(interactor.action)
        optionalString(interactor.message)
        u64(interactor.timing.startedAt)
        f64(interactor.timing.done)
        f64(interactor.timing.total)
        f64(interactor.timing.rate)
        f64(interactor.timing.secondsLeft)
    }
}

private extension MessageReader {
    /// A refusal; a file's is checked as a scan helper's report is (the
    /// loader's words, escaped and bounded, nothing only the host finds).
    mutating func refusal() throws(MessageError) -> PresenterMessage.Refusal {
        let byte = try u8()
        let path = try string()
        guard let tag = PresenterMessage.RefusalTag(rawValue: byte) else {
            throw MessageError("an unknown refusal \(byte)")
        }
        switch tag {
        case .file:
            let record = try data()
            do throws(PluginLoadFailure.ReportProblem) {
                return .file(path: path, try PluginLoadFailure(record: record))
            } catch {
                throw MessageError("a refusal that is not the loader's (\(error))")
            }
        case .presenter:
            return .presenter(path: path, id: try string())
        }
    }

    mutating func geometry() throws(MessageError) -> ViewGeometry {
        ViewGeometry(cols: Int(try u32()), rows: Int(try u32()), flags: try u32())
    }

    mutating func interactor() throws(MessageError) -> InteractorSnapshot {
        let id = try u64()
        let progress = try f64()
        let type = try string(), action = try string(), message = try optionalString()
        // InteractorTiming's init makes a value that is no number unknown.
        let timing = InteractorTiming(
            startedAt: try u64(), done: try f64(), total: try f64(), rate: try f64(), secondsLeft: try f64())
        return InteractorSnapshot(
            id: id, type: type, action: action, progress: progress, message: message, timing: timing)
    }
}
