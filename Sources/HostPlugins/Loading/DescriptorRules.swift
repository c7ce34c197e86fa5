import HostText

/// The rules every field a presenter declares must pass, wherever the host
/// reads it: a descriptor in a plugin's memory (`DescriptorReader`), and a
/// record of one, which a scan helper reports and the registry cache keeps
/// (`LoadRecords`). One rule a field, in one place: what the host lists,
/// caches, completes and resolves never depends on where it was read, and
/// a record forged by plugin code passes only what a real descriptor does.
enum DescriptorRules {
    /// Host limits on string fields, in bytes: generous, but they keep a
    /// garbage pointer from being read for ever and the listing readable.
    /// The header's comment on `presenter_descriptor` states them.
    enum Limit {
        static let id = PluginLoadFailure.idMaxBytes
        static let name = 128
        static let version = 64
        static let description = 512
        static let author = 256
        static let license = 128
    }

    /// The hooks a descriptor may define, in descriptor order, as
    /// `LoadedPresenter.Hooks.presentNames` names them.
    static let hookNames = ["create", "destroy", "show", "hide", "progress", "render", "key"]

    /// The text of string field `field` from its bytes (as many as were
    /// read: at most `limit + 1`), or nil when there are none (an empty
    /// string counts as absent).
    /// - Throws: longer than `limit` bytes, not UTF-8, or holding a control
    ///   character (it would reach the terminal through `--list`) or a
    ///   layout character (a listing line would read differently from what
    ///   it holds): ``ControlCharacters/all``.
    static func text(_ bytes: some Collection<UInt8>, field: String, limit: Int)
        throws(PluginLoadFailure.DescriptorProblem) -> String?
    {
        guard bytes.count <= limit else { throw .tooLong(field: field, limit: limit) }
        guard !bytes.isEmpty else { return nil }
        guard let value = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8(field: field) }
        if value.unicodeScalars.contains(where: ControlCharacters.all.matches) { throw .controlCharacter(field: field) }
        return value
    }

    /// `text` of a field every presenter needs (id, name, version).
    /// - Throws: what ``text(_:field:limit:)`` throws, or that it is empty.
    static func requiredText(_ bytes: some Collection<UInt8>, field: String, limit: Int)
        throws(PluginLoadFailure.DescriptorProblem) -> String
    {
        guard let value = try text(bytes, field: field, limit: limit) else { throw .emptyField(field) }
        return value
    }

    /// An id (`id`, or the `extends` that names one), read by ``text(_:field:limit:)``
    /// with ``Limit/id``: only `a-z`, `0-9`, `.`, `_` and `-`, so that a
    /// shell that completes it, a file name or a log line can hold it as it is.
    static func checkId(_ id: String, field: String) throws(PluginLoadFailure.DescriptorProblem) {
        if !PresenterIdRule.isValid(id) { throw .invalidId(field: field, value: "'\(id)'") }
    }

    /// The ABI a presenter was built for: this host's major, and a minor no
    /// newer than this host's.
    static func checkABI(_ abi: ABIVersion) throws(PluginLoadFailure.DescriptorProblem) {
        guard abi.major == ABIVersion.host.major else { throw .abiMajor(plugin: abi) }
        guard abi.minor <= ABIVersion.host.minor else { throw .abiNewerMinor(plugin: abi) }
    }

    /// Whether `names` are hooks a descriptor can define, each once, in
    /// descriptor order: what `LoadedPresenter.Hooks.presentNames` gives.
    static func areHookNames(_ names: [String]) -> Bool {
        var rest = hookNames[...]
        for name in names {
            guard let index = rest.firstIndex(of: name) else { return false }
            rest = rest[(index + 1)...]
        }
        return true
    }
}
