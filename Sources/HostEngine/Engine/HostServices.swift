import Glibc
import HostPlugins
import HostText
import PresenterABI

/// The `presenter_host` table given to every plugin: one static table for
/// the process, its functions plain C functions that find the host objects
/// behind the opaque pointers (``PresenterInstance`` for a context,
/// ``EngineView`` for a view).
///
/// Every service checks that it runs inside a hook, on the engine's thread,
/// and otherwise does nothing (returning 0, NULL or an error status), so a
/// plugin's own threads, or a pointer kept past its call, cannot race the
/// host.
enum HostServices {
    /// The table; valid for the life of the process.
    // Safe: built once (a `static let` initialiser runs once, under a lock) and never written again.
    nonisolated(unsafe) static let table: UnsafePointer<presenter_host> = {
        let table = UnsafeMutablePointer<presenter_host>.allocate(capacity: 1)
        table.initialize(to: makeTable())
        return UnsafePointer(table)
    }()

    /// The longest log line kept, in bytes (a presenter process sends each one to the host).
    static let maxLogBytes = 4096

    /// The table: its size and ABI version, then the services by what
    /// they act on. Each entry is a closure that captures nothing, so that
    /// it converts to a C function pointer.
    private static func makeTable() -> presenter_host {
        var host = presenter_host()
        host.struct_size = UInt32(MemoryLayout<presenter_host>.size)
        host.abi_major = UInt16(PRESENTER_ABI_MAJOR)
        host.abi_minor = UInt16(PRESENTER_ABI_MINOR)
        setContextServices(&host)
        setBaseServices(&host)
        setViewServices(&host)
        return host
    }

    /// The services on a presenter's own context: log, set_error, now_ns,
    /// request_frame and option.
    private static func setContextServices(_ host: inout presenter_host) {
        host.log = { context, level, message in
            guard let instance = HostServices.instance(context, "log"), let message else { return }
            let text = String(
                decoding: UnsafeRawBufferPointer(start: message, count: strnlen(message, HostServices.maxLogBytes)),
                as: UTF8.self)
            instance.engine.delegate?.engine(
                log: PresenterLogEntry(
                    level: .init(abi: level), presenterId: instance.plugin.id,
                    message: text))
        }
        host.set_error = { context, message in
            HostServices.instance(context, "set_error")?.lastError = message.map {
                String(
                    decoding: UnsafeRawBufferPointer(start: $0, count: strnlen($0, HostServices.maxLogBytes)),
                    as: UTF8.self)
            }
        }
        host.now_ns = { context in
            HostServices.instance(context, "now_ns")?.engine.clock.now() ?? 0
        }
        host.request_frame = { context, time in
            guard let instance = HostServices.instance(context, "request_frame") else { return }
            instance.frameRequest = min(instance.frameRequest ?? time, time)
        }
        host.option = { context, key in
            guard let instance = HostServices.instance(context, "option"), let key else { return nil }
            return instance.option(String(cString: key))
        }
    }

    /// The base_* services: a hook of the presenter this one extends, called
    /// from this one's hook.
    private static func setBaseServices(_ host: inout presenter_host) {
        host.base_show = { context, view, message, interactor in
            guard let (instance, base) = HostServices.base(context, "base_show") else { return PRESENTER_OK }
            guard let view, let interactor else { return PRESENTER_ERR_INVALID }
            return HostServices.relay(base.show(view, message, interactor), to: instance)
        }
        host.base_hide = { context, view, message, interactor, failure in
            guard let (instance, base) = HostServices.base(context, "base_hide") else { return PRESENTER_OK }
            guard let view, let interactor else { return PRESENTER_ERR_INVALID }
            return HostServices.relay(base.hide(view, message, interactor, failure), to: instance)
        }
        host.base_progress = { context, view, interactor in
            guard let (instance, base) = HostServices.base(context, "base_progress") else { return PRESENTER_OK }
            guard let view, let interactor else { return PRESENTER_ERR_INVALID }
            return HostServices.relay(base.progress(view, interactor), to: instance)
        }
        host.base_render = { context, view, now in
            guard let (_, base) = HostServices.base(context, "base_render"), let view else { return }
            base.render(view, now)
        }
        host.base_key = { context, view, code in
            guard let (_, base) = HostServices.base(context, "base_key"), let view else { return 0 }
            return base.key(view, code)
        }
    }

    /// The services on a view: its size and flags, text width, drawing (in
    /// render only) and its elements.
    private static func setViewServices(_ host: inout presenter_host) {
        host.view_size = { view, cols, rows in
            let geometry = HostServices.view(view, "view_size")?.engine.geometry
            cols?.pointee = UInt32(geometry?.cols ?? 0)
            rows?.pointee = UInt32(geometry?.rows ?? 0)
        }
        host.view_flags = { view in
            HostServices.view(view, "view_flags")?.engine.viewFlags ?? 0
        }
        host.text_width = { view, text in
            guard HostServices.view(view, "text_width") != nil, let text else { return 0 }
            // What draw_text would draw, so a presenter that centres by it lands where it meant.
            return UInt32(DisplayWidth.of(Canvas.withoutControls(String(cString: text))))
        }
        host.draw_text = { view, col, row, maxCols, text, style in
            guard let view = HostServices.view(view, "draw_text", inRender: true), let text else { return 0 }
            return UInt32(
                view.engine.recordText(
                    String(cString: text), col: col, row: row, maxColumns: maxCols, style: style,
                    presenterId: view.top.plugin.id))
        }
        host.draw_box = { view, col, row, cols, rows, style in
            guard let view = HostServices.view(view, "draw_box", inRender: true) else { return }
            view.engine.recordBox(
                col: col, row: row, cols: cols, rows: rows, style: style, presenterId: view.top.plugin.id)
        }
        host.draw_cycle = { view, col, row, maxCols, frames, count, start, interval, style in
            guard let view = HostServices.view(view, "draw_cycle", inRender: true), let frames,
                count <= PRESENTER_CYCLE_MAX_FRAMES
            else { return 0 }
            var texts: [String] = []
            for index in 0..<Int(count) {
                guard let text = frames[index] else { return 0 }
                texts.append(String(cString: text))
            }
            return UInt32(
                view.engine.recordCycle(
                    texts, col: col, row: row, maxColumns: maxCols, style: style, start: start, interval: interval,
                    presenterId: view.top.plugin.id))
        }
        host.element = { view, name, operation in
            guard let view = HostServices.view(view, "element"), let name else { return PRESENTER_ERR_INVALID }
            let element = String(cString: name)
            guard view.elements.contains(element) else { return PRESENTER_ERR_NOT_FOUND }
            guard (PRESENTER_ELEMENT_HIDE...PRESENTER_ELEMENT_STOP_ANIMATING).contains(operation) else {
                return PRESENTER_ERR_INVALID
            }
            view.engine.delegate?.engine(view: view.id, element: element, operation: operation)
            return PRESENTER_OK
        }
    }

    /// The instance behind `context`, when called inside a hook on the
    /// engine's thread; otherwise nil, and the call is noted as ignored.
    private static func instance(_ context: OpaquePointer?, _ service: String) -> PresenterInstance? {
        // The pointer is looked up and the thread checked before anything
        // behind it is read: a plugin thread may call with a freed context.
        guard let entry = LiveHandles.entry(context) else { return nil }
        guard entry.scope.isInHook else {
            entry.misuses.note(entry.presenterId, service, entry.scope.placeOfCall)
            return nil
        }
        return PresenterInstance.from(context)
    }

    /// The instance behind `context` and its base, when it has one.
    private static func base(_ context: OpaquePointer?, _ service: String) -> (PresenterInstance, PresenterInstance)? {
        guard let instance = instance(context, service), let base = instance.base else { return nil }
        return (instance, base)
    }

    /// The view behind `view`, when called inside a hook of that view on
    /// the engine's thread (inside render, for `inRender`); otherwise nil,
    /// and the call is noted as ignored.
    private static func view(_ view: OpaquePointer?, _ service: String, inRender: Bool = false) -> EngineView? {
        // As for a context: nothing behind the pointer is read before the
        // view is known live and the call to be inside a hook on its thread.
        guard let entry = LiveHandles.entry(view) else { return nil }
        guard entry.scope.isInHook else {
            entry.misuses.note(entry.presenterId, service, entry.scope.placeOfCall)
            return nil
        }
        guard let record = EngineView.from(view) else { return nil }
        let engine = record.engine
        guard record.phase != .outside else {
            engine.misuses.note(record.top.plugin.id, service, "with a view outside a hook of that view")
            return nil
        }
        guard !inRender || record.phase == .render else {
            engine.misuses.note(record.top.plugin.id, service, "outside render (drawing works only there)")
            return nil
        }
        return record
    }

    /// Returns a base hook's status to the presenter that called it, and its
    /// error message as that presenter's, unless that presenter sets its own.
    private static func relay(_ outcome: HookOutcome, to caller: PresenterInstance) -> presenter_status {
        if outcome.failed, let message = outcome.message { caller.lastError = message }
        return outcome.status
    }
}
