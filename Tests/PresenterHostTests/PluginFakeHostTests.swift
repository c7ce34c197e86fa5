import Foundation
import PresenterABI

// Support for the plugin and SDK tests: a real plugin library loaded with
// dlopen, and a fake host (a presenter_host table of @convention(c)
// functions) that records every service call, draws into a character grid
// and runs on a clock the test moves by hand.

/// A plugin library loaded for real, as the host loads it.
struct LoadedPlugin {
    let path: String
    let descriptors: [UnsafePointer<presenter_descriptor>]

    /// Loads the built product `lib<name>.so`. With `privateCopy`, loads a copy
    /// of the file instead, so that the library's statics (such as
    /// NetActivity's shared counter) belong to this test alone.
    static func load(_ name: String, privateCopy: Bool = false) throws -> LoadedPlugin {
        var url = TestPaths.library(name)
        if privateCopy {
            let copy = TestPaths.temporaryDirectory("plugin").appendingPathComponent(url.lastPathComponent)
            try FileManager.default.copyItem(at: url, to: copy)
            url = copy
        }
        return try load(file: url)
    }

    /// Loads the library at `url` (a plugin a test compiled).
    static func load(file url: URL) throws -> LoadedPlugin {
        // Never dlclosed: the host never unloads code either.
        guard let handle = dlopen(url.path, RTLD_NOW | RTLD_LOCAL) else {
            throw LoadError(message: String(cString: dlerror()))
        }
        guard let symbol = dlsym(handle, PRESENTER_ENTRY_SYMBOL) else {
            throw LoadError(message: "\(url.path): no \(PRESENTER_ENTRY_SYMBOL)")
        }
        let entry = unsafeBitCast(symbol, to: presenter_descriptor_fn.self)
        var descriptors: [UnsafePointer<presenter_descriptor>] = []
        while let descriptor = entry(UInt32(descriptors.count)) { descriptors.append(descriptor) }
        return LoadedPlugin(path: url.path, descriptors: descriptors)
    }

    /// The first (in these plugins, the only) descriptor.
    var descriptor: UnsafePointer<presenter_descriptor> { descriptors[0] }

    struct LoadError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// The host side of one presenter instance: the services table, the clock,
/// the options, and a record of every call the plugin made.
final class FakeHost {
    /// The clock of now_ns and render, in nanoseconds; tests move it.
    var now: UInt64 = 1_000_000_000
    var options: [String: String] = [:]
    /// The status base_show/base_hide/base_progress return.
    var baseStatus: presenter_status = PRESENTER_OK
    private(set) var frameRequests: [UInt64] = []
    private(set) var logs: [(level: Int32, message: String)] = []
    private(set) var errors: [String] = []
    /// "show|hide|progress|render|key" followed by the arguments, in call order.
    private(set) var baseCalls: [String] = []
    /// Option values handed out, kept alive until the host goes.
    private var optionStrings: [UnsafeMutablePointer<CChar>] = []
    let table = UnsafeMutablePointer<presenter_host>.allocate(capacity: 1)

    init() {
        table.initialize(to: FakeHost.services)
    }

    deinit {
        optionStrings.forEach { free($0) }
        table.deallocate()
    }

    /// The context pointer the plugin passes back to every service.
    var context: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    /// Forgets the frames asked for so far.
    func takeFrameRequests() -> [UInt64] {
        defer { frameRequests = [] }
        return frameRequests
    }

    /// Milliseconds as nanoseconds.
    static func ms(_ value: UInt64) -> UInt64 { value * 1_000_000 }

    private static func of(_ context: OpaquePointer?) -> FakeHost {
        Unmanaged<FakeHost>.fromOpaque(UnsafeRawPointer(context!)).takeUnretainedValue()
    }

    private static func describe(_ interactor: UnsafePointer<presenter_interactor>?) -> String {
        guard let i = interactor?.pointee else { return "nil" }
        return "\(String(cString: i.type_name)):\(String(cString: i.action)):\(i.id):\(i.progress)"
    }

    private static let services = presenter_host(
        struct_size: UInt32(MemoryLayout<presenter_host>.size),
        abi_major: UInt16(PRESENTER_ABI_MAJOR), abi_minor: UInt16(PRESENTER_ABI_MINOR),
        log: { ctx, level, message in of(ctx).logs.append((level, String(cString: message!))) },
        set_error: { ctx, message in of(ctx).errors.append(String(cString: message!)) },
        now_ns: { ctx in of(ctx).now },
        request_frame: { ctx, at in of(ctx).frameRequests.append(at) },
        option: { ctx, key in
            let host = of(ctx)
            guard let value = host.options[String(cString: key!)] else { return nil }
            let copy = strdup(value)!
            host.optionStrings.append(copy)
            return UnsafePointer(copy)
        },
        base_show: { ctx, view, message, interactor in
            let host = of(ctx)
            host.baseCalls.append("show \(message.map { String(cString: $0) } ?? "nil") \(describe(interactor))")
            return host.baseStatus
        },
        base_hide: { ctx, view, message, interactor, failure in
            let host = of(ctx)
            let failureText = failure.map {
                "\($0.pointee.code):\(String(cString: $0.pointee.domain)):\(String(cString: $0.pointee.message))"
            }
            host.baseCalls.append(
                "hide \(message.map { String(cString: $0) } ?? "nil") \(describe(interactor)) \(failureText ?? "nil")")
            return host.baseStatus
        },
        base_progress: { ctx, view, interactor in
            let host = of(ctx)
            host.baseCalls.append("progress \(describe(interactor))")
            return host.baseStatus
        },
        base_render: { ctx, view, now in of(ctx).baseCalls.append("render \(now)") },
        base_key: { ctx, view, key in
            of(ctx).baseCalls.append("key \(key)")
            return 0
        },
        view_size: { view, cols, rows in
            let view = FakeView.of(view)
            cols?.pointee = UInt32(view.cols)
            rows?.pointee = UInt32(view.rows)
        },
        view_flags: { view in FakeView.of(view).flags },
        text_width: { view, text in UInt32(String(cString: text!).unicodeScalars.count) },
        draw_text: { view, col, row, maxCols, text, style in
            UInt32(
                FakeView.of(view).drawText(
                    String(cString: text!), col: Int(col), row: Int(row),
                    maxCols: Int(maxCols), style: style))
        },
        draw_box: { view, col, row, cols, rows, style in
            FakeView.of(view).drawBox(col: Int(col), row: Int(row), cols: Int(cols), rows: Int(rows))
        },
        element: { view, name, op in FakeView.of(view).element(String(cString: name!), op) }
    )
}

/// A view: its size and flags, a character grid that draw_text and draw_box
/// paint (one scalar a cell: the tests use no wide characters), and its elements.
final class FakeView {
    let cols: Int
    let rows: Int
    var flags: UInt32
    /// The status element() returns for each name; a missing name is NOT_FOUND.
    var elements: [String: presenter_status] = [:]
    private(set) var elementCalls: [String] = []
    /// The text drawn in the last render, with its style, in call order.
    private(set) var texts: [(text: String, style: UInt32)] = []
    private var grid: [[Character]]
    /// Drawing works only inside render, as in the host.
    var rendering = false

    init(cols: Int = 40, rows: Int = 10, flags: UInt32 = PRESENTER_VIEW_UNICODE | PRESENTER_VIEW_ANIMATED) {
        self.cols = cols
        self.rows = rows
        self.flags = flags
        grid = Array(repeating: Array(repeating: " ", count: cols), count: rows)
    }

    var handle: OpaquePointer { OpaquePointer(Unmanaged.passUnretained(self).toOpaque()) }

    static func of(_ view: OpaquePointer?) -> FakeView {
        Unmanaged<FakeView>.fromOpaque(UnsafeRawPointer(view!)).takeUnretainedValue()
    }

    /// Clears the overlay before a frame, as the host does.
    func clear() {
        grid = Array(repeating: Array(repeating: " ", count: cols), count: rows)
        texts = []
    }

    /// The screen as lines, trailing blanks kept.
    var lines: [String] { grid.map { String($0) } }

    /// The screen as lines with trailing blanks removed and blank lines dropped,
    /// for compact expectations.
    var visibleLines: [String] {
        lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }.filter { !$0.isEmpty }
    }

    var isBlank: Bool { visibleLines.isEmpty }

    func element(_ name: String, _ op: Int32) -> presenter_status {
        elementCalls.append("\(name) \(op)")
        return elements[name] ?? PRESENTER_ERR_NOT_FOUND
    }

    func drawText(_ text: String, col: Int, row: Int, maxCols: Int, style: UInt32) -> Int {
        guard rendering else { return 0 }
        var cells = Array(text)
        if cells.count > maxCols { cells = Array(cells.prefix(max(maxCols - 1, 0))) + (maxCols > 0 ? ["…"] : []) }
        texts.append((String(cells), style))
        for (offset, cell) in cells.enumerated() { put(cell, col + offset, row) }
        return cells.count
    }

    func drawBox(col: Int, row: Int, cols: Int, rows: Int) {
        guard rendering, cols >= 2, rows >= 2 else { return }
        let unicode = flags & PRESENTER_VIEW_UNICODE != 0
        let (h, v, corners): (Character, Character, [Character]) =
            unicode ? ("─", "│", ["┌", "┐", "└", "┘"]) : ("-", "|", ["+", "+", "+", "+"])
        for y in row..<(row + rows) {
            for x in col..<(col + cols) {
                let top = y == row, bottom = y == row + rows - 1, left = x == col, right = x == col + cols - 1
                switch (top || bottom, left || right) {
                case (true, true): put(corners[(top ? 0 : 2) + (left ? 0 : 1)], x, y)
                case (true, false): put(h, x, y)
                case (false, true): put(v, x, y)
                case (false, false): put(" ", x, y)
                }
            }
        }
    }

    private func put(_ cell: Character, _ col: Int, _ row: Int) {
        guard (0..<cols).contains(col), (0..<rows).contains(row) else { return }
        grid[row][col] = cell
    }
}

/// One instance of a presenter, created with a fake host, destroyed on deinit.
final class PluginInstance {
    let descriptor: presenter_descriptor
    let host: FakeHost
    private(set) var instance: UnsafeMutableRawPointer?

    /// Calls create; throws the status and the message set with set_error when it fails.
    init(_ descriptor: UnsafePointer<presenter_descriptor>, host: FakeHost = FakeHost()) throws {
        self.descriptor = descriptor.pointee
        self.host = host
        let status = self.descriptor.create!(descriptor, host.table, host.context, &instance)
        guard status == PRESENTER_OK else { throw CreateFailure(status: status, messages: host.errors) }
    }

    deinit {
        descriptor.destroy?(instance)
    }

    struct CreateFailure: Error, Equatable {
        let status: presenter_status
        let messages: [String]
    }

    @discardableResult
    func show(
        _ view: FakeView, _ message: String, id: UInt64, type: String = "AddBookmarkInteractor",
        action: String = "add-bookmark", progress: Double = -1
    ) -> presenter_status {
        withInteractor(type, action, id, progress) { descriptor.show!(instance, view.handle, message, $0) }
    }

    @discardableResult
    func hide(
        _ view: FakeView, _ message: String?, id: UInt64, type: String = "AddBookmarkInteractor",
        action: String = "add-bookmark", failure: (code: Int64, domain: String, message: String)? = nil
    ) -> presenter_status {
        withInteractor(type, action, id, -1) { interactor in
            guard let failure else { return descriptor.hide!(instance, view.handle, message, interactor, nil) }
            return failure.domain.withCString { domain in
                failure.message.withCString { text in
                    var f = presenter_failure(
                        struct_size: UInt32(MemoryLayout<presenter_failure>.size),
                        reserved: 0, code: failure.code, domain: domain, message: text)
                    return descriptor.hide!(instance, view.handle, message, interactor, &f)
                }
            }
        }
    }

    @discardableResult
    func progress(
        _ view: FakeView, id: UInt64, _ fraction: Double, type: String = "AddBookmarkInteractor",
        action: String = "add-bookmark"
    ) -> presenter_status {
        withInteractor(type, action, id, fraction) { descriptor.progress!(instance, view.handle, $0) }
    }

    /// Clears the view and renders a frame at the host's current time.
    func render(_ view: FakeView) {
        view.clear()
        view.rendering = true
        descriptor.render!(instance, view.handle, host.now)
        view.rendering = false
    }

    func key(_ view: FakeView, _ key: UInt32) -> Int32 {
        descriptor.key!(instance, view.handle, key)
    }

    private func withInteractor(
        _ type: String, _ action: String, _ id: UInt64, _ progress: Double,
        _ body: (UnsafePointer<presenter_interactor>) -> presenter_status
    ) -> presenter_status {
        type.withCString { type in
            action.withCString { action in
                var interactor = presenter_interactor(
                    struct_size: UInt32(MemoryLayout<presenter_interactor>.size), reserved: 0,
                    type_name: type, action: action, id: id, progress: progress, message: nil)
                return body(&interactor)
            }
        }
    }
}
