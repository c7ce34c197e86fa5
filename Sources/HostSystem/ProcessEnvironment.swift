#if canImport(Glibc)
    import Glibc
#endif
import SystemShims

/// The host's own environment, read and changed in one place.
package enum ProcessEnvironment {
    /// The last reading of `environ`, until ``set(_:to:)`` changes it.
    private static let reading = LockedValue<[String: String]?>(nil)

    /// The environment as a dictionary, read from `environ` once per
    /// process (and again after ``set(_:to:)``). FoundationEssentials'
    /// `ProcessInfo.environment` builds the dictionary again at every call,
    /// at about 6,000 instructions a variable: with a usual environment of
    /// 80 that was half a million per call, and `run` made several, in the
    /// host and in the presenter process. An entry without `=` is skipped;
    /// of a name given twice the first counts, as for `getenv`; bytes that
    /// are not UTF-8 read as U+FFFD.
    package static var current: [String: String] {
        reading.withLock { cached in
            if let cached { return cached }
            let read = readEnviron()
            cached = read
            return read
        }
    }

    /// Sets `name` to `value`. Only before the host starts a thread of its
    /// own: `setenv` races any thread that reads the environment (`getenv`).
    /// Every process the host starts afterwards inherits it.
    package static func set(_ name: String, to value: String) {
        setenv(name, value, 1)
        reading.withLock { $0 = nil }
    }

    /// The environment as `NAME=value` entries, in its order, with `name`
    /// set to `value` (replacing every entry of that name): what `run`'s
    /// command gets, the user's environment as it is but for the host's
    /// own variable.
    package static func entries(setting name: String, to value: String) -> [String] {
        var entries: [String] = []
        guard var pointer = ph_environment() else { return ["\(name)=\(value)"] }
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if !text.hasPrefix(name + "=") { entries.append(text) }
            pointer += 1
        }
        return entries + ["\(name)=\(value)"]
    }

    private static func readEnviron() -> [String: String] {
        var variables: [String: String] = [:]
        // NULL after clearenv(3).
        guard var entry = ph_environment() else { return variables }
        while let pointer = entry.pointee {
            let bytes = UnsafeBufferPointer(
                start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if variables[name] == nil {
                    variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
                }
            }
            entry += 1
        }
        return variables
    }
}
