/// Trimming white space as Foundation's `trimmingCharacters(in:)` does with
/// `.whitespaces` and `.whitespacesAndNewlines`, without Foundation, whose
/// import loads ICU's libraries into every process at start
/// (docs/BENCHMARKS.md): Unicode scalars at either end that are space
/// separators (Zs) or a tab, and with `newlines` also U+000A to U+000D,
/// U+0085, U+2028 and U+2029.
extension StringProtocol {
    package func trimmingWhitespace(newlines: Bool = false) -> String {
        let scalars = unicodeScalars
        func isSpace(_ scalar: Unicode.Scalar) -> Bool {
            if scalar == "\t" || scalar.properties.generalCategory == .spaceSeparator { return true }
            guard newlines else { return false }
            switch scalar.value {
            case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return true
            default: return false
            }
        }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}

/// Foundation's `replacingOccurrences(of:with:)` without Foundation: every
/// run of `target`'s Unicode scalars, matched scalar by scalar (as
/// Foundation matches UTF-16 units), not Character by Character, so a `\n`
/// inside a `\r\n` is found too.
extension StringProtocol {
    package func replacingEvery(_ target: String, with replacement: String) -> String {
        let pattern = Array(target.unicodeScalars)
        guard !pattern.isEmpty else { return String(self) }
        let scalars = Array(unicodeScalars)
        var result = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == pattern[0] && index + pattern.count <= scalars.count
                && scalars[index..<index + pattern.count].elementsEqual(pattern)
            {
                result.append(contentsOf: replacement.unicodeScalars)
                index += pattern.count
            } else {
                result.append(scalars[index])
                index += 1
            }
        }
        return String(result)
    }
}
