import PresenterABI

/// The style of a canvas cell: a `PRESENTER_COLOR_*` value in the low 4 bits
/// and `PRESENTER_STYLE_*` attributes above, exactly as plugins pass it to
/// `draw_text` and `draw_box`. Unknown bits are dropped.
public struct CellStyle: Hashable, Sendable {
    /// The ABI style bits.
    public let rawValue: UInt32

    /// Keeps the colour (when it is one the ABI defines) and the known attributes.
    @inlinable public init(rawValue: UInt32) {
        let color = rawValue & 0xF
        let attributes =
            rawValue & (UInt32(PRESENTER_STYLE_BOLD) | UInt32(PRESENTER_STYLE_DIM) | UInt32(PRESENTER_STYLE_REVERSE))
        self.rawValue = (color <= UInt32(PRESENTER_COLOR_CYAN) ? color : 0) | attributes
    }

    /// Bits already kept by ``init(rawValue:)`` (a cell's own).
    @inlinable init(bits: UInt32) { rawValue = bits }

    /// The default style: no colour, no attribute.
    @inlinable public static var plain: CellStyle { CellStyle(rawValue: 0) }

    /// The `PRESENTER_COLOR_*` value (0 is the terminal's default colour).
    public var color: UInt32 { rawValue & 0xF }
    /// `PRESENTER_STYLE_BOLD`
    public var isBold: Bool { rawValue & UInt32(PRESENTER_STYLE_BOLD) != 0 }
    /// `PRESENTER_STYLE_DIM`
    public var isDim: Bool { rawValue & UInt32(PRESENTER_STYLE_DIM) != 0 }
    /// `PRESENTER_STYLE_REVERSE`
    public var isReverse: Bool { rawValue & UInt32(PRESENTER_STYLE_REVERSE) != 0 }

    /// The same attributes without a colour (what is shown where colour is off).
    @inlinable public var withoutColor: CellStyle { CellStyle(rawValue: rawValue & ~0xF) }

    /// What a terminal shows of this style: all of it, or without its
    /// colour where colour is off. Shared by the frame encoders.
    @inlinable package func shown(withColor color: Bool) -> CellStyle { color ? self : withoutColor }
}

extension CellStyle {
    /// Appends to `out` (a frame's buffer) the SGR sequence that changes
    /// the terminal's style from `current` to this one (a reset first
    /// unless one of them is plain); nothing when they are the same.
    /// Shared by the frame encoders.
    package func appendSGR(from current: CellStyle, to out: inout [UInt8]) {
        guard self != current else { return }
        out.append(0x1B)
        out.append(UInt8(ascii: "["))
        var first = true
        func parameter(_ digits: UInt8...) {
            if !first { out.append(UInt8(ascii: ";")) }
            first = false
            out.append(contentsOf: digits)
        }
        if !(self == .plain || current == .plain) { parameter(UInt8(ascii: "0")) }
        if isBold { parameter(UInt8(ascii: "1")) }
        if isDim { parameter(UInt8(ascii: "2")) }
        if isReverse { parameter(UInt8(ascii: "7")) }
        if color != 0 { parameter(UInt8(ascii: "3"), UInt8(ascii: "0") + UInt8(color)) }
        out.append(UInt8(ascii: "m"))
    }
}
