// presenter-describe MANIFEST OUTPUT: the tool of the SDK's
// PresenterDescription build plugin. Reads a `.presenters` file (Manifest)
// and writes a Swift file holding, for each presenter, its description
// note (presenter_abi.h, "The description") and its `PresenterInfo`.
import PresenterABI

#if canImport(Glibc)
    import Glibc
#endif

/// Fails the build with `file:line: error: message`, as compilers do.
func fail(_ path: String, line: Int, _ message: String) -> Never {
    say("\(path):\(max(line, 1)): error: \(message)\n")
    exit(1)
}

/// Writes `text` on stderr.
func say(_ text: String) {
    var bytes = Array(text.utf8)
    _ = write(2, &bytes, bytes.count)
}

/// The bytes of the file at `path`.
func contents(of path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        fail(path, line: 0, "cannot be read: \(String(cString: strerror(errno)))")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&chunk, 1, chunk.count, file)
        bytes += chunk[..<count]
        if count < chunk.count { break }
    }
    return bytes
}

/// The text of one presenter's note: `key=value` entries, each NUL-ended.
func noteText(_ presenter: Manifest.Presenter, index: Int) -> [UInt8] {
    let hooks = presenter.fields["hooks"].map(Manifest.names) ?? Manifest.hooks
    var entries = [
        ("abi", "\(PRESENTER_ABI_MAJOR).\(PRESENTER_ABI_MINOR)"), ("index", String(index)), ("id", presenter.id),
    ]
    for key in Manifest.textKeys {
        if let value = presenter.fields[key], !value.isEmpty { entries.append((key, value)) }
    }
    let capabilities = Manifest.capabilities.filter(
        (presenter.fields["capabilities"].map(Manifest.names) ?? []).contains)
    if !capabilities.isEmpty { entries.append(("capabilities", capabilities.joined(separator: ","))) }
    entries.append(("hooks", (["create", "destroy"] + Manifest.hooks.filter(hooks.contains)).joined(separator: ",")))
    return entries.flatMap { Array("\($0.0)=\($0.1)".utf8) + [0] }
}

/// `[0x61, 0x62]`, for an `InlineArray` literal.
func byteList(_ bytes: [UInt8]) -> String {
    "[" + bytes.map { "0x" + String($0, radix: 16) }.joined(separator: ", ") + "]"
}

/// A Swift string literal of `text` (which holds no control character).
func literal(_ text: String) -> String {
    "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
}

/// `mbhud`, `swiftExample` for `swift-example`: the property's name.
func propertyName(_ id: String) -> String {
    let name = camelCase(id)
    return "`" + (name.first?.isNumber == false ? name : "presenter" + name) + "`"
}

/// `one-row` as Swift spells it: `oneRow` (a capability's case).
func camelCase(_ words: String) -> String {
    words.split(whereSeparator: { $0 == "-" || $0 == "." || $0 == "_" }).enumerated().map {
        $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst()
    }.joined()
}

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    say("usage: presenter-describe FILE.presenters OUTPUT.swift\n")
    exit(64)
}
let (input, output) = (arguments[1], arguments[2])
let manifest: Manifest
do throws(Manifest.Problem) {
    manifest = try Manifest(contents(of: input))
} catch {
    fail(input, line: error.line, error.message)
}

let name = Array(PRESENTER_NOTE_NAME.utf8) + [0]
var source = """
    // Made by presenter-describe from \(input.split(separator: "/").last ?? ""): do not edit.
    import PresenterSDK


    """
for (index, presenter) in manifest.presenters.enumerated() {
    let text = noteText(presenter, index: index)
    let paddedName = name + [UInt8](repeating: 0, count: (4 - name.count % 4) % 4)
    let paddedText = text + [UInt8](repeating: 0, count: (4 - text.count % 4) % 4)
    source += """
        /// The description note of '\(presenter.id)', which presenter-host reads from the file.
        @section(".note.presenter") @used
        private let presenterDescriptionNote\(index):
            (UInt32, UInt32, UInt32, InlineArray<\(paddedName.count), UInt8>, InlineArray<\(paddedText.count), UInt8>) = (
                \(name.count), \(text.count), \(PRESENTER_NOTE_TYPE), \(byteList(paddedName)),
                \(byteList(paddedText))
            )


        """
}
source += "extension PresenterInfo {\n"
for presenter in manifest.presenters {
    let fields = presenter.fields
    let optional = { (key: String) in fields[key].flatMap { $0.isEmpty ? nil : literal($0) } ?? "nil" }
    let capabilities = Manifest.capabilities.filter((fields["capabilities"].map(Manifest.names) ?? []).contains)
    let hooks = Manifest.hooks.filter((fields["hooks"].map(Manifest.names) ?? Manifest.hooks).contains)
    source += """
            /// '\(presenter.id)', as its description note says.
            static let \(propertyName(presenter.id)) = PresenterInfo(
                id: \(literal(presenter.id)), name: \(literal(fields["name"]!)), version: \(literal(fields["version"]!)),
                description: \(optional("description")), author: \(optional("author")), license: \(optional("license")),
                extends: \(optional("extends")), capabilities: [\(capabilities.map { "." + camelCase($0) }.joined(separator: ", "))],
                hooks: [\(hooks.map { "." + $0 }.joined(separator: ", "))])

        """
}
source += "}\n"

guard let file = fopen(output, "w"), fputs(source, file) >= 0, fclose(file) == 0 else {
    fail(output, line: 0, "cannot be written: \(String(cString: strerror(errno)))")
}
