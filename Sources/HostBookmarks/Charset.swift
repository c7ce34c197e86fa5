import HostSystem
import HostText

/// A character encoding a web page declares, found by its label as the
/// Encoding Standard (WHATWG) names them: UTF-8, UTF-16, windows-1252 (which
/// is what a browser reads for `iso-8859-1` and `us-ascii`) decoded here,
/// and the other common single- and double-byte encodings decoded by the C
/// library's iconv (not EUC-JP, ISO-2022-JP or Mac Roman, which were left
/// out when Foundation decoded them: a page in one of them reads as UTF-8;
/// Foundation is not linked, as its import loads ICU into every process at
/// start). Decoding never fails: a byte that means nothing in the encoding
/// becomes U+FFFD, as in a browser.
enum Charset: Equatable, Sendable {
    case utf8
    case utf16(bigEndian: Bool)
    case windows1252
    /// An encoding iconv converts, by its iconv name (`iconv -l`).
    case iconv(String)

    /// The encoding a label names (any case, white space around it
    /// ignored), or nil for a label not known here (a page that declares one
    /// is then read as if it declared nothing).
    init?(label: String) {
        let key = label.trimmingWhitespace(newlines: true).lowercased()
        guard let charset = Charset.labels[key] else { return nil }
        self = charset
    }

    /// Whether the bytes `<`, `>`, `/`, `=`, quotes and ASCII letters after
    /// a `<` stand for themselves (see ``HTMLScanner``): all but UTF-16.
    var isASCIICompatible: Bool {
        if case .utf16 = self { return false }
        return true
    }

    /// `bytes` as text; what does not decode becomes U+FFFD.
    func decode(_ bytes: ArraySlice<UInt8>) -> String {
        switch self {
        case .utf8:
            return String(decoding: bytes, as: UTF8.self)
        case .utf16(let bigEndian):
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            var index = bytes.startIndex
            while index + 1 < bytes.endIndex {
                let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
                units.append(UInt16(high) << 8 | UInt16(low))
                index += 2
            }
            // Lone surrogates become U+FFFD; so does an odd last byte.
            return String(decoding: units, as: UTF16.self) + (index < bytes.endIndex ? "\u{FFFD}" : "")
        case .windows1252:
            return String(String.UnicodeScalarView(bytes.map(Charset.windows1252)))
        case .iconv(let name):
            return Charset.decode(bytes, with: name)
        }
    }

    /// What a windows-1252 byte stands for. 0x80 to 0x9F are its
    /// typographic marks (the five it leaves undefined stay C1 controls, as
    /// the Encoding Standard says); the rest are Latin-1.
    static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        return Unicode.Scalar(windows1252High[Int(byte) - 0x80])!
    }

    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D,
        0x017D, 0x008F, 0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// `bytes` converted by iconv from `name` (``Iconv``): what does not
    /// decode is U+FFFD. An encoding iconv does not have (a C library
    /// without its gconv modules) reads as windows-1252.
    private static func decode(_ bytes: ArraySlice<UInt8>, with name: String) -> String {
        guard let output = Iconv.utf8(from: bytes, encoding: name) else { return Charset.windows1252.decode(bytes) }
        return String(decoding: output, as: UTF8.self)
    }

    /// The labels known here, lower case, as the Encoding Standard lists them.
    private static let labels: [String: Charset] = {
        let groups: [(Charset, [String])] = [
            (.utf8, ["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8"]),
            (
                .utf16(bigEndian: false),
                [
                    "utf-16", "utf-16le", "csunicode", "iso-10646-ucs-2", "ucs-2", "unicode",
                    "unicodefeff",
                ]
            ),
            (.utf16(bigEndian: true), ["utf-16be", "unicodefffe"]),
            (
                .windows1252,
                [
                    "windows-1252", "iso-8859-1", "latin1", "l1", "ascii", "us-ascii", "cp1252", "cp819",
                    "ibm819", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987",
                    "x-cp1252", "csisolatin1", "ansi_x3.4-1968",
                ]
            ),
            (
                .iconv("ISO-8859-2"),
                [
                    "iso-8859-2", "latin2", "l2", "iso8859-2", "iso88592", "iso_8859-2",
                    "csisolatin2",
                ]
            ),
            (.iconv("CP1250"), ["windows-1250", "cp1250", "x-cp1250"]),
            (.iconv("CP1251"), ["windows-1251", "cp1251", "x-cp1251"]),
            (.iconv("CP1253"), ["windows-1253", "cp1253", "x-cp1253"]),
            (
                .iconv("CP1254"),
                [
                    "windows-1254", "cp1254", "x-cp1254", "iso-8859-9", "latin5", "l5",
                    "iso8859-9", "iso88599", "iso_8859-9",
                ]
            ),
            (
                .iconv("CP932"),
                ["shift_jis", "sjis", "ms_kanji", "windows-31j", "ms932", "x-sjis", "csshiftjis"]
            ),
            (
                .iconv("ISO-8859-15"),
                [
                    "iso-8859-15", "latin9", "l9", "iso8859-15", "iso885915", "iso_8859-15",
                    "csisolatin9",
                ]
            ),
            (.iconv("KOI8-R"), ["koi8-r", "koi8", "koi", "koi8_r", "cskoi8r"]),
            (.iconv("KOI8-U"), ["koi8-u", "koi8-ru"]),
            (.iconv("GB18030"), ["gb18030", "gbk", "gb2312", "chinese", "csgb2312", "x-gbk", "iso-ir-58"]),
            (.iconv("BIG5"), ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"]),
            (
                .iconv("CP949"),
                [
                    "euc-kr", "korean", "ks_c_5601-1987", "ks_c_5601-1989", "ksc5601", "ksc_5601",
                    "windows-949", "cseuckr",
                ]
            ),
        ]
        var labels: [String: Charset] = [:]
        for (charset, names) in groups {
            for name in names { labels[name] = charset }
        }
        return labels
    }()
}
