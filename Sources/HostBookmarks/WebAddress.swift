/// An absolute URL read as get-title needs it: its scheme, host and port,
/// or nil when it is not one (RFC 3986). The host's own reading, so that
/// get-title needs no Foundation in the host (a few lines against 1 ms and
/// 3 MiB a process); the fetcher, which has Foundation, reads the URL again.
///
/// The rules are `URLComponents(string:)`'s (swift-foundation's RFC 3986
/// parser, which percent-encodes what it can): the scheme runs to the first
/// ":" ahead of any "/?#[]@"; "//" then opens an authority, to the first
/// "/?#", whose user information ends at its last "@"; a host in brackets
/// ("[::1]") may be followed only by a port; a port is digits. What
/// encoding mends (a path, query, fragment or user information with any
/// character in it) is no refusal. A host is refused when an ASCII
/// character in it is not a host's (RFC 3986 `reg-name`, `%` with two hex
/// digits), and, for a host with other characters (an international one,
/// which Foundation reads by IDNA), when one of those is not a letter,
/// mark, number or symbol, is U+FFFD, or a label is empty (but the last),
/// starts with a mark, starts or ends with "-" or has "--" third and
/// fourth. IDNA's further rules (bidirectional text, joiners, lengths) are
/// left to the fetcher, which refuses such a URL when it reads it again.
struct WebAddress: Equatable {
    /// The scheme as written ("HTTP" stays so).
    let scheme: String
    /// The host with its percent-encoding decoded ("[::1]" keeps its
    /// brackets); "" for an empty authority ("http://"); nil without an
    /// authority, or when the decoded bytes are not UTF-8.
    let host: String?
    /// The port; nil when there is none, it is empty, or past `Int`.
    let port: Int?

    /// `url` read, or nil when it has no scheme or cannot be a URL.
    init?(_ url: String) {
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(where: { Self.beforeScheme.contains($0) }),
            bytes[colon] == UInt8(ascii: ":"),
            let first = bytes.first, Self.isLetter(first), bytes[..<colon].allSatisfy(Self.isSchemeByte)
        else { return nil }
        scheme = String(decoding: bytes[..<colon], as: UTF8.self)
        let rest = bytes[(colon + 1)...]
        guard rest.starts(with: "//".utf8) else {
            (host, port) = (nil, nil)
            return
        }
        let start = rest.startIndex + 2
        let authority = rest[start..<(rest[start...].firstIndex(where: { "/?#".utf8.contains($0) }) ?? rest.endIndex)]
        let hostStart = authority.lastIndex(of: UInt8(ascii: "@")).map { $0 + 1 } ?? authority.startIndex
        var hostPart = authority[hostStart...]
        var portPart = authority[authority.endIndex...]
        if hostPart.first == UInt8(ascii: "["), let close = hostPart.firstIndex(of: UInt8(ascii: "]")) {
            // An IP literal: its part before a zone ("%25eth0", which encoding mends) is checked.
            let after = close + 1
            guard after == hostPart.endIndex || hostPart[after] == UInt8(ascii: ":") else { return nil }
            if after < hostPart.endIndex { portPart = hostPart[(after + 1)...] }
            hostPart = hostPart[..<after]
            let address = hostPart.dropFirst().dropLast().prefix { $0 != UInt8(ascii: "%") }
            guard address.allSatisfy({ Self.isHostByte($0) || $0 == UInt8(ascii: ":") }) else { return nil }
        } else {
            if let hostColon = hostPart.firstIndex(of: UInt8(ascii: ":")) {
                portPart = hostPart[(hostColon + 1)...]
                hostPart = hostPart[..<hostColon]
            }
            guard Self.isRegisteredName(hostPart) else { return nil }
        }
        guard portPart.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        host = Self.percentDecoded(hostPart)
        port = Int(String(decoding: portPart, as: UTF8.self))
    }

    /// The bytes that end a scheme's search: only a ":" among them makes one.
    private static let beforeScheme = Set(":/?#[]@".utf8)

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "+-.".utf8.contains(byte)
    }

    /// RFC 3986's `unreserved` and `sub-delims`: what a host holds besides `%XX`.
    private static func isHostByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "-._~!$&'()*+,;=".utf8.contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20)
    }

    /// Whether `host` (no brackets) is a host: its ASCII as RFC 3986 says,
    /// its other characters as the IDNA reading would take them, in short.
    private static func isRegisteredName(_ host: ArraySlice<UInt8>) -> Bool {
        var index = host.startIndex
        while index < host.endIndex {
            let byte = host[index]
            if byte == UInt8(ascii: "%") {
                guard index + 3 <= host.endIndex, isHexDigit(host[index + 1]), isHexDigit(host[index + 2])
                else { return false }
                index += 3
            } else {
                guard byte >= 0x80 || isHostByte(byte) else { return false }
                index += 1
            }
        }
        guard host.contains(where: { $0 >= 0x80 }) else { return true }
        // IDNA's other dots (ideographic, fullwidth, halfwidth) separate
        // labels too, and a soft hyphen is dropped: `例え。jp` is typed so.
        let labels = String(decoding: host, as: UTF8.self).unicodeScalars
            .filter { $0 != "\u{AD}" }
            .map { ["\u{3002}", "\u{FF0E}", "\u{FF61}"].contains($0) ? "." : $0 }
            .split(separator: ".", omittingEmptySubsequences: false)
        for (index, label) in labels.enumerated() {
            // Only the last label may be empty ("bücher.de."), and none starts
            // or ends with "-" or has "--" third and fourth ("xn--", "ab--c").
            guard let first = label.first, let last = label.last else {
                if index == labels.count - 1 && index > 0 { continue }
                return false
            }
            guard first != "-", last != "-", !label.dropFirst(2).starts(with: ["-", "-"]),
                !first.properties.generalCategory.isMark
            else { return false }
            for scalar in label where !scalar.isASCII {
                guard scalar != "\u{FFFD}", scalar.properties.generalCategory.isLetterMarkNumberOrSymbol else {
                    return false
                }
            }
        }
        return true
    }

    /// `bytes` with each `%XX` decoded; nil when the result is not UTF-8.
    private static func percentDecoded(_ bytes: ArraySlice<UInt8>) -> String? {
        var decoded: [UInt8] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "%"), index + 3 <= bytes.endIndex, isHexDigit(bytes[index + 1]),
                isHexDigit(bytes[index + 2]),
                let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16)
            {
                decoded.append(value)
                index += 3
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }
}

extension Unicode.GeneralCategory {
    fileprivate var isMark: Bool {
        self == .nonspacingMark || self == .spacingMark || self == .enclosingMark
    }

    fileprivate var isLetterMarkNumberOrSymbol: Bool {
        switch self {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber,
            .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            true
        default: false
        }
    }
}
