#if canImport(Glibc)
    import Glibc
#endif

/// The one table of signal names the host prints.
package enum SignalName {
    /// `SIGSEGV` for 11, and so on; `signal N` for one without a common name.
    package static func of(_ signal: Int32) -> String {
        names[signal] ?? "signal \(signal)"
    }

    private static let names: [Int32: String] = [
        SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
        SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
        SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
        SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSYS: "SIGSYS", SIGSTOP: "SIGSTOP", SIGCONT: "SIGCONT",
        SIGTSTP: "SIGTSTP", SIGTTIN: "SIGTTIN", SIGTTOU: "SIGTTOU", SIGCHLD: "SIGCHLD", SIGWINCH: "SIGWINCH",
        SIGIO: "SIGIO", SIGURG: "SIGURG", SIGPROF: "SIGPROF", SIGVTALRM: "SIGVTALRM", SIGSTKFLT: "SIGSTKFLT",
        SIGPWR: "SIGPWR",
    ]
}
