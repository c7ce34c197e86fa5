#if canImport(Glibc)
    import Glibc
#endif

/// Changes to the host's own environment (`setenv`), in one place. Every
/// process the host starts afterwards inherits them.
package enum ProcessEnvironment {
    /// Sets `name` to `value`. Only before the host starts a thread of its
    /// own: `setenv` races any thread that reads the environment (`getenv`).
    package static func set(_ name: String, to value: String) {
        setenv(name, value, 1)
    }
}
