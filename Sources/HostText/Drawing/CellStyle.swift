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
}

extension CellStyle {
    /// The SGR sequence that changes the terminal's style from `current` to
    /// this one (a reset first unless one of them is plain); empty when they
    /// are the same. Shared by the frame encoders.
    package func sgr(from current: CellStyle) -> String {
        guard self != current else { return "" }
        var parameters: [String] = self == .plain || current == .plain ? [] : ["0"]
        if isBold { parameters.append("1") }
        if isDim { parameters.append("2") }
        if isReverse { parameters.append("7") }
        if color != 0 { parameters.append(String(30 + color)) }
        return "\u{1B}[" + parameters.joined(separator: ";") + "m"
    }
}
