import Foundation
@testable import HostBookmarks
import HostText
import Testing

/// The host reads a URL's scheme, host and port itself (WebAddress), as
/// Foundation's URLComponents (with its IDNA, as presenter-host-fetch has
/// it) reads them: the same URLs refused, the same parts of the others.
/// Checked on every input the web-url fuzzer kept, as typed and as
/// get-title makes it a URL, and on the shapes the rules name.
@Suite("Get-title: the host reads a URL as URLComponents does")
struct WebAddressTests {
    static let shapes = [
        "https://exa mple.com", "https://bücher.de", "http://a\u{1B}[2J.com", "http://[::1]:8000/",
        "http://[fe80::1%eth0]/", "http://[fe80::1%25eth0]/", "http://[x y]/", "http://[::1]x/", "http://[::1]:/",
        "http://[]/", "http://[::1", "http://%FF.com", "http://%41.com:80", "http://%4.com", "http://x:8a/",
        "http://x:/", "https://☃.net", "https://b\u{FFFD}.de", "https://\u{301}a.com", "https://ｆｕｌｌ.com",
        "http://a@b@c/", "http://u:p@h:1/", "HTTP://Ex.com:99999999999999999999999/", "http:", "http://", "http:/x",
        "1http://x", "h+-.:x", "-x://y", "ht tp://x", "http://x/a b?c d#e f", "http://x?@y", "http://x#@y",
        "mailto:a@b", "x:/[", "http://a b@c/", "http://a%2@c/",
        // The labels of an international host, as IDNA takes them.
        "https://bü.de.", "https://bü-.de", "https://-bü.de", "https://ab--ü.de", "https://a..bü.de",
        "https://-a.bü.de", "https://.bü.de", "https://bü.de..", "https://xn--ü.de", "https://a_b.bü.de",
        "https://bü.de.:80", "https://a-b.bü.de", "https://ab-c.bü.de",
        // IDNA's other dots and the soft hyphen it drops.
        "https://例え。jp/", "https://bü．de", "https://bü｡de", "https://b\u{AD}ü.de", "https://bü。",
        "http://[fe80::1%+a]/", "http://[fe80::1%-1]/",
    ]

    static var inputs: [String] {
        get throws {
            let folder = TestPaths.packageRoot.appendingPathComponent("Tests/PresenterHostTests/Fixtures/fuzz/web-url")
            var inputs = shapes
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                let text = String(decoding: try Data(contentsOf: folder.appendingPathComponent(name)), as: UTF8.self)
                let typed = text.trimmingWhitespace(newlines: true)
                inputs += [typed, "https://" + typed, "https:" + typed]
            }
            return inputs
        }
    }

    @Test func theSameURLsAreRefusedAndTheSamePartsRead() throws {
        let inputs = try Self.inputs
        #expect(inputs.count > 1000)
        for url in inputs {
            let foundation = URLComponents(string: url).flatMap {
                $0.scheme == nil || URL(string: url) == nil ? nil : $0
            }
            let own = WebAddress(url)
            #expect((own == nil) == (foundation == nil), "\(url.debugDescription)")
            guard let own, let foundation else { continue }
            #expect(own.scheme == foundation.scheme && own.port == foundation.port, "\(url.debugDescription)")
            // IDNA maps an international host ("Ｘ" → "x"): compared where it is ASCII.
            if let host = own.host, host.unicodeScalars.allSatisfy(\.isASCII) {
                #expect(host == foundation.host, "\(url.debugDescription)")
            }
        }
    }

    /// The parts read of `url`, as one comparable value.
    private func parts(_ url: String) -> [String?]? {
        WebAddress(url).map { [$0.scheme, $0.host, $0.port.map(String.init)] }
    }

    @Test func anAuthorityGivesAHostAndPort() {
        #expect(parts("HTTP://u:p@Example.com:8080/x") == ["HTTP", "Example.com", "8080"])
        #expect(parts("http://[fe80::1%25eth0]:80/") == ["http", "[fe80::1%eth0]", "80"])
        #expect(parts("http:") == ["http", nil, nil])
        #expect(parts("http://") == ["http", "", nil])
        #expect(parts("http://%FF/") == ["http", nil, nil])
        #expect(parts("example.com") == nil)
    }
}
