#if canImport(Glibc)
    import Glibc
#endif

/// The C library's character-set conversion (`iconv`): get-title decodes
/// the legacy encodings a page may declare (Shift_JIS, GBK, KOI8-R...)
/// with it, as Foundation, which would load ICU into every process, is not
/// linked.
package enum Iconv {
    /// `bytes` converted by iconv from the encoding `name` (its iconv name,
    /// `iconv -l`) to UTF-8: where a byte starts no character (EILSEQ), or
    /// the text ends inside one (EINVAL), it becomes U+FFFD and the
    /// conversion goes on at the next byte, as a browser reads it. Nil when
    /// iconv has no such encoding (a C library without its gconv modules).
    package static func utf8(from bytes: ArraySlice<UInt8>, encoding name: String) -> [UInt8]? {
        let converter = iconv_open("UTF-8", name)
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = Array(bytes)
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]
        input.withUnsafeMutableBufferPointer { source in
            var inPointer = source.baseAddress.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self) }
            var inLeft = source.count
            while inLeft > 0 {
                let (status, failure, written) = chunk.withUnsafeMutableBufferPointer { target in
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(target.baseAddress!)
                        .assumingMemoryBound(to: CChar.self)
                    var outLeft = target.count
                    let status = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                    return (status, errno, target.count - outLeft)
                }
                output += chunk[..<written]
                guard status == -1 else { break }
                if failure == E2BIG { continue }
                // EILSEQ or EINVAL: one byte is U+FFFD, then on from the next.
                output += replacement
                inPointer = inPointer.map { $0 + 1 }
                inLeft -= 1
                _ = iconv(converter, nil, nil, nil, nil)  // back to the initial state
            }
        }
        return output
    }
}
