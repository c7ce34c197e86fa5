#if canImport(Glibc)
    import Glibc
#endif

/// printf-style formatting of numbers (`%.3f`, `%g`, `%04d`), with the C
/// library's own rules: Foundation's `String(format:)` without Foundation,
/// whose import loads ICU's libraries into every process at start
/// (docs/BENCHMARKS.md). The C locale's: a `.` before the decimals.
package enum CFormat {
    package static func string(_ format: String, _ arguments: CVarArg...) -> String {
        withVaList(arguments) { list in
            var buffer = [CChar](repeating: 0, count: 128)
            let needed = Int(vsnprintf(&buffer, buffer.count, format, list))
            if needed >= buffer.count {
                buffer = [CChar](repeating: 0, count: needed + 1)
                _ = withVaList(arguments) { again in vsnprintf(&buffer, buffer.count, format, again) }
            }
            return String(decoding: buffer.prefix(max(needed, 0)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
