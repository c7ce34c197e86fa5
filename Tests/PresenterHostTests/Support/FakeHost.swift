import Foundation
import PresenterABI

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

    /// A host of ABI 1.2 plays `draw_cycle` itself (`playsCycles`); without
    /// it the table is a 1.1 host's whose `draw_cycle` is missing, so the
    /// plugin must turn its spinner by frames.
    init(playsCycles: Bool = false) {
        var services = FakeHost.services
        if playsCycles {
            services.draw_cycle = { view, col, row, maxCols, frames, count, start, interval, style in
                let texts = (0..<Int(count)).map { String(cString: frames![$0]!) }
                return UInt32(
                    FakeView.of(view).drawCycle(
                        texts, col: Int(col), row: Int(row), maxCols: Int(maxCols), start: start, interval: interval,
                        style: style))
            }
        }
        table.initialize(to: services)
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
        element: { view, name, op in FakeView.of(view).element(String(cString: name!), op) },
        draw_cycle: nil
    )
}
