// The fuzz target for --messages files (`scripts/fuzz --target messages`):
// the input is the file's bytes, parsed by MessagesFile.parse (UTF-8
// check, JSONReader, the shape rules). Checked on every input: a bad file
// is one `CommandError` whose text names the file and holds no control
// character (a key with a newline once broke the line).

#if !PRESENTER_FUZZ
    @testable import HostCommandLine
#endif

enum MessagesFuzz {
    static func run(_ input: [UInt8]) {
        do throws(CommandError) {
            _ = try MessagesFile.parse(input, name: "messages.json")
        } catch {
            guard error.message.contains("messages.json") else {
                fuzzFailure("a bad messages file gave \(error.message.debugDescription)")
            }
            fuzzCheckOneLine(error.message, "a bad messages file")
        }
    }

    static func seeds() -> [(name: String, bytes: [UInt8])] {
        let text: [(String, String)] = [
            (
                "full",
                #"{"run": {"working": "Building…", "success": "Built", "failure": "Failed"}, "test": {"working": "Testing"}}"#
            ),
            ("escapes", #"{"a\u00e9\ud83d\ude00": {"working": "tab\there \"quoted\" \\ \/ \b\f\n\r"}}"#),
            ("numbers", #"{"run": {"working": -12.5e+3}, "x": [1, 0.5, 1E9, true, false, null, {}, []]}"#),
            ("nested", String(repeating: "[", count: 40) + String(repeating: "]", count: 40)),
            ("unknown-key", #"{"run": {"workin": "x"}}"#),
            ("empty", " \n\t"),
            ("bad-surrogate", #"{"run": {"working": "\ud800x"}}"#),
        ]
        return text.map { ($0.0, Array($0.1.utf8)) } + [("invalid-utf8", [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x7D])]
    }
}
