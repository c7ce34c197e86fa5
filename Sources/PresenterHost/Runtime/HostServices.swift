import PresenterABI

/// The `presenter_host` table given to every plugin: one static table for
/// the process, its functions plain C functions that find the host objects
/// behind the opaque pointers (``PresenterInstance`` for a context,
/// ``PresenterViewHandle`` for a view).
///
/// Every service checks that it runs on the presenter thread inside a hook
/// and otherwise does nothing (returning 0, NULL or an error status), so a
/// misbehaving plugin cannot race the host.
enum HostServices {
    /// The table; valid for the life of the process.
    static let table: UnsafePointer<presenter_host> = {
        let table = UnsafeMutablePointer<presenter_host>.allocate(capacity: 1)
        table.initialize(to: makeTable())
        return UnsafePointer(table)
    }()

    private static func makeTable() -> presenter_host {
        var host = presenter_host()
        host.struct_size = UInt32(MemoryLayout<presenter_host>.size)
        host.abi_major = UInt16(PRESENTER_ABI_MAJOR)
        host.abi_minor = UInt16(PRESENTER_ABI_MINOR)

        host.log = { context, level, message in
            guard let instance = HostServices.instance(context), let message else { return }
            instance.runtime.log(PresenterLogEntry(level: .init(abi: level), presenterId: instance.plugin.id,
                                                   message: String(cString: message)))
        }
        host.set_error = { context, message in
            HostServices.instance(context)?.lastError = message.map { String(cString: $0) }
        }
        host.now_ns = { context in
            HostServices.instance(context)?.runtime.clock.now() ?? 0
        }
        host.request_frame = { context, time in
            guard let instance = HostServices.instance(context) else { return }
            instance.frameRequest = min(instance.frameRequest ?? time, time)
        }
        host.option = { context, key in
            guard let instance = HostServices.instance(context), let key else { return nil }
            return instance.option(String(cString: key))
        }

        host.base_show = { context, view, message, interactor in
            guard let (instance, base) = HostServices.base(context) else { return PRESENTER_OK }
            guard let view, let interactor else { return PRESENTER_ERR_INVALID }
            return HostServices.relay(base.show(view, message, interactor), to: instance)
        }
        host.base_hide = { context, view, message, interactor, failure in
            guard let (instance, base) = HostServices.base(context) else { return PRESENTER_OK }
            guard let view, let interactor else { return PRESENTER_ERR_INVALID }
            return HostServices.relay(base.hide(view, message, interactor, failure), to: instance)
        }
        host.base_progress = { context, view, interactor in
            guard let (instance, base) = HostServices.base(context) else { return PRESENTER_OK }
            guard let view, let interactor else { return PRESENTER_ERR_INVALID }
            return HostServices.relay(base.progress(view, interactor), to: instance)
        }
        host.base_render = { context, view, now in
            guard let (_, base) = HostServices.base(context), let view else { return }
            base.render(view, now)
        }
        host.base_key = { context, view, code in
            guard let (_, base) = HostServices.base(context), let view else { return 0 }
            return base.key(view, code)
        }

        host.view_size = { view, cols, rows in
            let size = HostServices.handle(view)?.screenlet.runtime.backend.size ?? (cols: 0, rows: 0)
            cols?.pointee = UInt32(size.cols)
            rows?.pointee = UInt32(size.rows)
        }
        host.view_flags = { view in
            HostServices.handle(view)?.screenlet.runtime.backend.flags.abiValue ?? 0
        }
        host.text_width = { view, text in
            guard HostServices.handle(view) != nil, let text else { return 0 }
            return UInt32(DisplayWidth.of(String(cString: text)))
        }
        host.draw_text = { view, col, row, maxCols, text, style in
            guard let handle = HostServices.handle(view), handle.phase == .render, let text else { return 0 }
            let runtime = handle.screenlet.runtime
            let unicode = runtime.backend.flags.contains(.unicode)
            runtime.drawCount += 1
            return UInt32(runtime.canvas.drawText(
                String(cString: text), col: Int(col), row: Int(row), maxColumns: Int(min(maxCols, UInt32(Int32.max))),
                style: CellStyle(rawValue: style),
                ellipsis: unicode ? DisplayWidth.unicodeEllipsis : DisplayWidth.asciiEllipsis))
        }
        host.draw_box = { view, col, row, cols, rows, style in
            guard let handle = HostServices.handle(view), handle.phase == .render else { return }
            let runtime = handle.screenlet.runtime
            runtime.drawCount += 1
            runtime.canvas.drawBox(col: Int(col), row: Int(row), width: Int(min(cols, 0xFFFF)), height: Int(min(rows, 0xFFFF)),
                                   style: CellStyle(rawValue: style), unicode: runtime.backend.flags.contains(.unicode))
        }
        host.element = { view, name, operation in
            guard let handle = HostServices.handle(view), let name else { return PRESENTER_ERR_INVALID }
            guard let element = handle.screenlet.view.elements[String(cString: name)] else { return PRESENTER_ERR_NOT_FOUND }
            return element.apply(operation) ? PRESENTER_OK : PRESENTER_ERR_INVALID
        }
        return host
    }

    /// The instance behind `context`, when called on the presenter thread.
    private static func instance(_ context: OpaquePointer?) -> PresenterInstance? {
        guard let instance = PresenterInstance.from(context), instance.runtime.thread.isCurrent else { return nil }
        return instance
    }

    /// The instance behind `context` and its base, when it has one.
    private static func base(_ context: OpaquePointer?) -> (PresenterInstance, PresenterInstance)? {
        guard let instance = instance(context), let base = instance.base else { return nil }
        return (instance, base)
    }

    /// The view handle behind `view`, when called inside a hook on the presenter thread.
    private static func handle(_ view: OpaquePointer?) -> PresenterViewHandle? {
        guard let handle = PresenterViewHandle.from(view), handle.phase != .outside,
              handle.screenlet.runtime.thread.isCurrent else { return nil }
        return handle
    }

    /// Returns a base hook's status to the presenter that called it, and its
    /// error message as that presenter's, unless that presenter sets its own.
    private static func relay(_ outcome: PresenterInstance.Outcome, to caller: PresenterInstance) -> presenter_status {
        if outcome.failed, let message = outcome.message { caller.lastError = message }
        return outcome.status
    }
}
