import HostPlugins
import PresenterABI

/// Runs presenter instances in this process: creates their chains, calls
/// their hooks and serves the host services they call, recording what they
/// draw. It trusts its plugins: a crash in a hook is a crash of this process.
///
/// Used by ``PresenterRuntime`` in its in-process mode (`run --in-process`),
/// which loads a resolved chain's files here at attach through its
/// ``PresenterLoader``, and by the presenter process, which serves a
/// ``PresenterProcess`` with it and attaches what it loaded itself
/// (``attach(_:loaded:elements:)``). Loaded presenters exist only here.
///
/// Every method runs on the one thread that `isEngineThread` names; host
/// services called on any other thread, or outside a hook, do nothing.
package final class LocalPresenterEngine: PresenterEngine {
    /// Options for the `option` host service ("<presenterId>.<key>" first, then "<key>").
    let options: [String: String]
    /// The clock of `now_ns`.
    let clock: HostClock
    package weak var delegate: PresenterEngineDelegate?
    /// The engine's thread, and whether a hook runs on it.
    let scope: HookScope
    private var views: [ViewID: EngineView] = [:] {
        didSet { cachedFrameRequests = nil }
    }
    /// ``frameRequests`` as last made, until something changes it.
    private var cachedFrameRequests: [ViewID: UInt64]?
    private(set) var geometry: ViewGeometry
    /// The render in progress is a view's last (``render(_:at:final:)``).
    private var finalRender = false
    /// What `view_flags` gives: the geometry's, and `PRESENTER_VIEW_FINAL`
    /// during a view's last render.
    var viewFlags: UInt32 { geometry.flags | (finalRender ? UInt32(PRESENTER_VIEW_FINAL) : 0) }
    /// What the render in progress drew, and the bytes of its texts.
    private var recording: [DrawOperation] = []
    private var recordedBytes = 0
    /// The cells the render in progress may still have the host paint
    /// (``DrawOperation/paintBudget(cols:rows:)``), and how many drawings it
    /// made past them: once one did not fit, the rest is dropped, here
    /// already, so that a presenter process sends no more than the host
    /// paints (the host weighs what it gets again).
    private var paintLeft = 0
    private var droppedPastBudget = 0
    /// The presenters whose drawing past the budget the log was told of (once each).
    private var saidOverBudget = Set<String>()
    /// Whether the render in progress already drew outside the view (one note a render).
    private var clippedThisRender = false
    /// Every hook call goes to the log with its arguments, duration and status.
    let tracing: Bool
    /// Service calls that did nothing, reported at the end of the next hook.
    let misuses = ServiceMisuses()
    /// How a resolved chain's presenters are loaded at attach; nil for an
    /// engine that is handed them loaded (the presenter process's server).
    let loader: PresenterLoader?

    package init(
        options: [String: String], clock: HostClock, geometry: ViewGeometry,
        tracing: Bool, loader: PresenterLoader?,
        isEngineThread: @escaping @Sendable () -> Bool
    ) {
        self.options = options
        self.loader = loader
        self.clock = clock
        self.geometry = geometry
        self.tracing = tracing
        scope = HookScope(isEngineThread: isEngineThread)
    }

    // MARK: - PresenterEngine

    /// Loads `chain` through the engine's loader (a file that no longer
    /// loads throws ``PresenterFailure/Reason/couldNotStart(_:)``), then
    /// attaches it.
    package func attach(_ view: ViewID, chain: PresenterChain, elements: [String]) throws(PresenterFailure) {
        guard let loader else { preconditionFailure("an engine without a loader is handed its presenters loaded") }
        var loaded: [LoadedPresenter] = []
        for plugin in chain.plugins { loaded.append(try loader.load(plugin)) }
        try attach(view, loaded: loaded, elements: elements)
    }

    /// Creates the instance chain of `view` from presenters already loaded,
    /// `[presenter, its base, ...]`, bases first.
    package func attach(_ view: ViewID, loaded chain: [LoadedPresenter], elements: [String]) throws(PresenterFailure) {
        let record = EngineView(id: view, engine: self, elements: Set(elements))
        var created: [PresenterInstance] = []
        for plugin in chain.reversed() {
            let instance = PresenterInstance(plugin, base: created.last, engine: self)
            do throws(PresenterFailure) {
                try instance.create()
            } catch {
                for made in created.reversed() { made.destroy() }
                throw error
            }
            created.append(instance)
        }
        record.top = created.last
        record.open()
        views[view] = record
    }

    package func show(_ view: ViewID, message: String, interactor: InteractorSnapshot) -> HookOutcome {
        guard let record = views[view] else { return .ok }
        return record.during(.hook) { pointer in
            message.withCString { text in interactor.withInteractor { record.top.show(pointer, text, $0) } }
        }
    }

    package func hide(_ view: ViewID, message: String?, interactor: InteractorSnapshot, failure: InteractorError?)
        -> HookOutcome
    {
        guard let record = views[view] else { return .ok }
        return record.during(.hook) { pointer in
            withOptionalCString(message) { text in
                interactor.withInteractor { info in
                    guard let failure else { return record.top.hide(pointer, text, info, nil) }
                    return failure.domain.withCString { domain in
                        failure.message.withCString { description in
                            var value = presenter_failure(
                                struct_size: UInt32(MemoryLayout<presenter_failure>.size),
                                reserved: 0, code: failure.code, domain: domain,
                                message: description)
                            return record.top.hide(pointer, text, info, &value)
                        }
                    }
                }
            }
        }
    }

    package func progress(_ view: ViewID, interactor: InteractorSnapshot) -> HookOutcome {
        guard let record = views[view] else { return .ok }
        return record.during(.hook) { pointer in interactor.withInteractor { record.top.progress(pointer, $0) } }
    }

    package func render(_ view: ViewID, at now: UInt64, final: Bool) -> [DrawOperation] {
        guard let record = views[view] else { return [] }
        // Requests up to now are served by this frame; those made while
        // rendering are for the next.
        var instance: PresenterInstance? = record.top
        while let current = instance {
            if let request = current.frameRequest, request <= now { current.frameRequest = nil }
            instance = current.base
        }
        recording = []
        recordedBytes = 0
        paintLeft = DrawOperation.paintBudget(cols: geometry.cols, rows: geometry.rows)
        droppedPastBudget = 0
        clippedThisRender = false
        finalRender = final
        record.during(.render) { record.top.render($0, now) }
        finalRender = false
        defer { recording = [] }
        if droppedPastBudget > 0, saidOverBudget.insert(record.top.plugin.id).inserted {
            note(
                .warning, presenterId: record.top.plugin.id,
                DrawOperation.overBudgetNote(
                    cols: geometry.cols, rows: geometry.rows, dropped: droppedPastBudget,
                    of: recording.count + droppedPastBudget))
        }
        return recording
    }

    /// Renders `view` at `now`, not its last render.
    package func render(_ view: ViewID, at now: UInt64) -> [DrawOperation] {
        render(view, at: now, final: false)
    }

    package func key(_ view: ViewID, code: UInt32) -> Bool {
        guard let record = views[view] else { return false }
        return record.during(.hook) { record.top.key($0, code) } != 0
    }

    package func setGeometry(_ geometry: ViewGeometry) {
        self.geometry = geometry
    }

    package func detach(_ view: ViewID) {
        guard let record = views.removeValue(forKey: view) else { return }
        for instance in record.top.chain { instance.destroy() }
    }

    package var frameRequests: [ViewID: UInt64] {
        if let cachedFrameRequests { return cachedFrameRequests }
        var requests: [ViewID: UInt64] = [:]
        for (id, record) in views {
            var instance: PresenterInstance? = record.top
            while let current = instance {
                if let request = current.frameRequest { requests[id] = min(requests[id] ?? request, request) }
                instance = current.base
            }
        }
        cachedFrameRequests = requests
        return requests
    }

    /// An instance's frame request changed, or a view came or went: the
    /// map is made again when next asked (the runtime asks every frame, and
    /// a presenter that keeps a frame asked for, mbhud's time row's next
    /// second, would cost a new map each time).
    func frameRequestsChanged() {
        cachedFrameRequests = nil
    }

    package func close() {}

    /// Nothing waits: hooks run in this process.
    package var hurry: @Sendable () -> Void { {} }
    /// Nothing to stop: a hook under way runs on the caller's thread.
    package var dismiss: (@Sendable () -> Void)? { nil }

    // MARK: - For the host services

    /// Runs a plugin hook, counted so services know they are inside one.
    /// At the end of the outermost one, the service calls that did nothing
    /// since the last go to the log.
    func inHook<T>(_ body: () -> T) -> T {
        scope.enter()
        defer {
            if scope.leave() {
                for (presenterId, text) in misuses.take() {
                    note(.warning, presenterId: presenterId, EngineNote.misuseTag + text)
                }
            }
        }
        return body()
    }

    /// Puts an engine note in the log (the engine's thread).
    func note(_ level: PresenterLogEntry.Level, presenterId: String, _ message: String) {
        delegate?.engine(log: PresenterLogEntry(level: level, presenterId: presenterId, message: message))
    }

    /// Records a draw_text of the render in progress; returns the columns
    /// the cut text takes.
    func recordText(_ text: String, col: Int32, row: Int32, maxColumns: UInt32, style: UInt32, presenterId: String)
        -> Int
    {
        let (operation, width) = DrawOperation.text(
            text, col: col, row: row, maxColumns: maxColumns, style: style,
            geometry: geometry)
        if width > 0 && (col < 0 || row < 0 || Int(row) >= geometry.rows || Int(col) + width > geometry.cols) {
            noteClipped("draw_text at (\(col), \(row)) \(width) columns wide", presenterId: presenterId)
        }
        if let operation, case .text(_, _, _, _, let kept) = operation { keep(operation, bytes: kept.utf8.count) }
        return width
    }

    /// Records a draw_cycle of the render in progress; returns the columns
    /// the widest text takes.
    func recordCycle(
        _ texts: [String], col: Int32, row: Int32, maxColumns: UInt32, style: UInt32, start: UInt64,
        interval: UInt64, presenterId: String
    ) -> Int {
        let (operation, width) = DrawOperation.cycle(
            texts, col: col, row: row, maxColumns: maxColumns, style: style, start: start, interval: interval,
            geometry: geometry)
        if width > 0 && (col < 0 || row < 0 || Int(row) >= geometry.rows || Int(col) + width > geometry.cols) {
            noteClipped("draw_cycle at (\(col), \(row)) \(width) columns wide", presenterId: presenterId)
        }
        if let operation { keep(operation, bytes: operation.budgetBytes) }
        return width
    }

    /// Records a draw_box of the render in progress.
    func recordBox(col: Int32, row: Int32, cols: UInt32, rows: UInt32, style: UInt32, presenterId: String) {
        if col < 0 || row < 0 || Int(col) + Int(cols) > geometry.cols || Int(row) + Int(rows) > geometry.rows {
            noteClipped("draw_box at (\(col), \(row)) \(cols)x\(rows)", presenterId: presenterId)
        }
        guard cols >= 2, rows >= 2 else { return }
        keep(.box(col: col, row: row, cols: cols, rows: rows, style: style), bytes: 0)
    }

    /// Adds `operation`, which takes `bytes` of the render's text bytes, to
    /// the render's drawing, unless the render is past one of its bounds:
    /// ``DrawOperation/maxPerRender`` operations, ``DrawOperation/maxBytesPerRender``
    /// bytes, and the cells the host paints (past those, every later one is dropped).
    private func keep(_ operation: DrawOperation, bytes: Int) {
        guard recording.count < DrawOperation.maxPerRender, recordedBytes + bytes <= DrawOperation.maxBytesPerRender
        else { return }
        let cost = operation.paintCost(cols: geometry.cols, rows: geometry.rows)
        guard droppedPastBudget == 0, cost <= paintLeft else {
            droppedPastBudget += 1
            return
        }
        paintLeft -= cost
        recordedBytes += bytes
        recording.append(operation)
    }
}

extension LocalPresenterEngine {
    /// Notes, once a render, a drawing that reached outside the view.
    private func noteClipped(_ what: String, presenterId: String) {
        guard !clippedThisRender else { return }
        clippedThisRender = true
        note(
            .warning, presenterId: presenterId,
            EngineNote.clippedTag
                + "\(what) reaches outside the \(geometry.cols)x\(geometry.rows) view; the host clipped it")
    }
}

extension InteractorSnapshot {
    /// Calls `body` with the `presenter_interactor` it describes (valid during the call).
    func withInteractor<T>(_ body: (UnsafePointer<presenter_interactor>) -> T) -> T {
        type.withCString { typeName in
            action.withCString { actionName in
                withOptionalCString(message) { message in
                    var interactor = presenter_interactor(
                        struct_size: UInt32(MemoryLayout<presenter_interactor>.size), reserved: 0,
                        type_name: typeName, action: actionName, id: id, progress: progress, message: message,
                        started_ns: timing.startedAt, done: timing.done, total: timing.total, rate: timing.rate,
                        eta_s: timing.secondsLeft)
                    return withUnsafePointer(to: &interactor, body)
                }
            }
        }
    }
}

/// Calls `body` with `text` as a C string, or with NULL.
func withOptionalCString<T>(_ text: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
    guard let text else { return body(nil) }
    return text.withCString(body)
}
