// The fuzz target for the registry cache file's reader
// (`scripts/fuzz --target registry-cache`): the input is a cache file,
// read by RegistryCacheFormat.decode twice, under the key its own K line
// names (as the host that wrote it would have it):
//  1. as it is, so the first line's checks (magic, version, checksum) run;
//  2. with its first line made right for the lines after it (put in front
//     when the input has none), so that mutated lines get past the checksum
//     to the line reader.
// Checked on every input: a refused file gives a one-line reason with no
// control character (the --verbose trace shows it); a file that reads
// writes back (encode) to bytes that read as the same entries, and writing
// those gives the same bytes again (one spelling per cache); every
// presenter read passes the descriptor's rules (an entry that does not is
// dropped: ScanFuzz.checkRules).

#if !PRESENTER_FUZZ
    @testable import HostPlugins
#endif

enum RegistryCacheFuzz {
    private static let magic = Array("presenter-host registry cache ".utf8)

    static func run(_ input: [UInt8]) {
        var body = input[...]
        if input.starts(with: magic), let newline = input.firstIndex(of: 0x0a) { body = input[(newline + 1)...] }
        let key = key(of: body)
        check(input, key: key)
        let fixed = RegistryCacheFormat.header(for: body) + body
        if fixed != input { check(fixed, key: key) }
    }

    /// Whether `input` reads as it is (under its own key): the kept real
    /// cache files must, or the fuzzer starts from files refused at once.
    static func reads(_ input: [UInt8]) -> Bool {
        let body = input.drop { $0 != 0x0a }.dropFirst()
        return (try? RegistryCacheFormat.decode(input, key: key(of: body))) != nil
    }

    /// The key named by the body's first line (`K <escaped key>`), or one
    /// the body cannot match.
    private static func key(of body: ArraySlice<UInt8>) -> String {
        let line = body.prefix { $0 != 0x0a }
        guard line.starts(with: [UInt8(ascii: "K"), 0x09]) else { return "no key" }
        return RegistryCacheFormat.unescaped(fuzzText(line.dropFirst(2)))
    }

    private static func check(_ bytes: [UInt8], key: String) {
        let entries: [String: RegistryCacheFormat.Entry]
        do throws(RegistryCacheFormat.Unreadable) {
            entries = try RegistryCacheFormat.decode(bytes, key: key)
        } catch {
            fuzzCheckOneLine(error.reason, "an unreadable cache")
            return
        }
        for entry in entries.values { ScanFuzz.checkRules(entry.contents) }
        let encoded = RegistryCacheFormat.encode(key: key, entries: entries)
        guard let again = try? RegistryCacheFormat.decode(encoded, key: key), again == entries else {
            fuzzFailure(
                "a cache read as \(entries) writes \(fuzzText(encoded).debugDescription), which reads otherwise")
        }
        let reencoded = RegistryCacheFormat.encode(key: key, entries: again)
        guard reencoded == encoded else {
            fuzzFailure(
                "a cache written as \(fuzzText(encoded).debugDescription) is written again as \(fuzzText(reencoded).debugDescription)"
            )
        }
    }

    /// What loading a plugin file can give, one of each kind of record: a
    /// file of presenters and refused descriptors, and files that failed as
    /// a whole (also the scan target's records).
    static let contents: [PluginLibrary.Outcome] = {
        func presenter(_ id: String, index: Int = 0, extends: String? = nil, text: String? = nil) -> PresenterPlugin {
            PresenterPlugin(
                id: id, name: text ?? "Fixture", version: "1.0.0", description: text, author: text, license: text,
                extends: extends, capabilities: [.messages, .determinate], abiVersion: .host, file: "", index: index,
                hookNames: text == nil ? [] : ["show", "hide", "progress"], source: .cache)
        }
        return [
            .success([
                .success(presenter("fixture.good", text: "Fish & Chips — café 😀 \\ x")),
                .failure(.descriptor(index: 1, id: "fixture.bad", .tooSmall(size: 24, minimum: 64))),
                .success(presenter("fixture.child", index: 2, extends: "fixture.good")),
                .failure(.descriptor(index: 3, id: nil, .invalidId(field: "id", value: "\"Not\\tAn Id\""))),
            ]),
            .failure(.crashed(signal: 11)),
            .failure(.timedOut(seconds: 2.5)),
            .failure(.file(.insecure(.writable(path: "/tmp/x\\ty", isDirectory: true, who: "others", mode: "o-w")))),
            .failure(.wrongMachine(plugin: "aarch64", host: "x86_64")),
            .failure(.notELF(looksLikeText: true)),
        ]
    }()

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        let identity = FileIdentity(
            device: 2049, inode: 131_074, size: 16_384, modified: 1_764_550_000_123_456_789, changed: 0)
        var entries: [String: RegistryCacheFormat.Entry] = [:]
        for (index, contents) in contents.enumerated() {
            entries["/usr/lib/presenter-host/plugins/lib\(index).so"] = .init(identity: identity, contents: contents)
        }
        entries["/home/u/plugins/odd\\name\twith\ntabs.so"] = .init(identity: identity, contents: contents[0])
        let key = "abi 1.2|binary 2049 42 1000 1764550000123456789|environment /a\\b\tc|default /usr/lib"
        let cache = RegistryCacheFormat.encode(key: key, entries: entries)
        let body = cache.drop { $0 != 0x0a }.dropFirst()
        return [
            ("cache", cache),
            ("empty-cache", RegistryCacheFormat.encode(key: "k", entries: [:])),
            ("body", Array(body)),
            ("bad-checksum", Array("presenter-host registry cache 1 0000000000000000\n".utf8) + body),
            ("other-version", Array("presenter-host registry cache 2 0\n".utf8) + body),
            ("not-a-cache", Array("{\"version\": 1}\n".utf8)),
        ]
    }
}
