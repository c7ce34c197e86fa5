/// A rate as a short text: `12.3/s` for units of a count, `1.5%/s` for a
/// fraction (``InteractorInfo/rate``, which is one or the other as
/// ``InteractorInfo/total`` says), so presenters need not each write it.
public enum Rate {
    /// `perSecond` (units, or a fraction when `ofFraction`, a second) with
    /// three significant digits at most, and `k` from 10,000, `M` and `G` from a million and a billion:
    /// `0.25/s`, `12.3/s`, `456/s`, `12.3k/s`, `1.5%/s`. Below 0.01 it is
    /// `<0.01/s`; a negative or NaN value is `?/s`.
    public static func format(perSecond: Double, ofFraction: Bool = false) -> String {
        let unit = ofFraction ? "%/s" : "/s"
        let value = ofFraction ? perSecond * 100 : perSecond
        guard !value.isNaN, value >= 0 else { return "?" + unit }
        if value < 0.01 { return value == 0 ? "0" + unit : "<0.01" + unit }
        for (scale, suffix, from) in [(1e9, "G", 1e9), (1e6, "M", 1e6), (1e3, "k", 1e4)] where value >= from {
            return significant(min(value / scale, 999_999)) + suffix + unit
        }
        return significant(value) + unit
    }

    /// Three significant digits (two decimals under 10, one under 100, none
    /// above), without trailing zeros after the point.
    private static func significant(_ value: Double) -> String {
        let decimals = value < 10 ? 2 : value < 100 ? 1 : 0
        if decimals == 0 { return "\(Int(value.rounded()))" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale)
        var fraction = String(scaled % Int(scale))
        fraction = String(repeating: "0", count: decimals - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return fraction.isEmpty ? "\(whole)" : "\(whole).\(fraction)"
    }
}
