#if canImport(Glibc)
    import Glibc
#endif

/// The running kernel, as `uname` names it: which sandbox layers hold
/// depends on its version (Landlock's ABI, a `pid_max` per PID namespace),
/// so `--sandbox-info` prints its release beside them.
package enum Kernel {
    /// The release (`uname -r`: `6.8.0-45-generic`), nil when uname fails.
    package static var release: String? {
        var name = utsname()
        guard uname(&name) == 0 else { return nil }
        return withUnsafeBytes(of: name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
