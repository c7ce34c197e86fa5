#if canImport(Glibc)
    import Glibc
#endif
import SystemShims

/// The host's own environment, read in one place: the command line reads
/// it and passes it down as a value (a library caller that gives none gets
/// it as the default), `scripts/layers` rejects a read anywhere else, and
/// nothing changes it.
@usableFromInline package enum ProcessEnvironment {
    /// The environment as a dictionary, read from `environ` once per
    /// process. FoundationEssentials'
    /// `ProcessInfo.environment` builds the dictionary again at every call,
    /// at about 6,000 instructions a variable: with a usual environment of
    /// 80 that was half a million per call, and `run` made several, in the
    /// host and in the presenter process. An entry without `=` is skipped;
    /// of a name given twice the first counts, as for `getenv`; an entry
    /// whose bytes are not UTF-8 is left out, as if unset (read as U+FFFD
    /// it would be another value: a folder of `LD_LIBRARY_PATH` or `HOME`
    /// that does not exist, passed on to a child as that).
    /// `@usableFromInline`: `BackendFactory.make`'s public default names it.
    @usableFromInline package static let current: [String: String] = variables(of: ph_environment())

    /// The environment as `NAME=value` entries, in its order, with each
    /// name of `setting` set to its value (replacing every entry of that
    /// name): what `run`'s command gets, the user's environment as it is
    /// but for the host's own variables.
    package static func entries(setting: [String: String]) -> [String] {
        var entries: [String] = []
        var pointer = ph_environment()
        while let entry = pointer?.pointee {
            let text = String(cString: entry)
            if setting[String(text.prefix { $0 != "=" })] == nil { entries.append(text) }
            pointer = pointer.map { $0 + 1 }
        }
        return entries + setting.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// The variables of `environment`, a NULL-ended array of `NAME=value`
    /// entries as `environ` is (NULL itself after clearenv(3)), read as
    /// ``current`` says.
    static func variables(of environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String: String] {
        var variables: [String: String] = [:]
        guard var entry = environment else { return variables }
        while let pointer = entry.pointee {
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")),
                let name = String(validating: bytes[..<equals], as: UTF8.self), variables[name] == nil,
                let value = String(validating: bytes[(equals + 1)...], as: UTF8.self)
            {
                variables[name] = value
            }
            entry += 1
        }
        return variables
    }
}
