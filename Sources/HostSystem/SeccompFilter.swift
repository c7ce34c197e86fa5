import CSeccomp
import SystemShims

#if canImport(Glibc)
    import Glibc
#endif

/// A seccomp-bpf filter, built with libseccomp (never hand-written BPF) and
/// loaded on the calling process: from then on the kernel checks each
/// system call of every thread against it. The host's thin view of
/// libseccomp; what a plugin's process may call is ``PluginConfinement``'s.
package struct SeccompFilter: ~Copyable {
    /// What the kernel does with a call.
    package enum Action: Equatable {
        /// The call goes through.
        case allow
        /// The call fails with this errno, unmade.
        case fail(Int32)
        /// The call is not made; the thread gets SIGSYS
        /// (`SECCOMP_RET_TRAP`), whose handler ends the process
        /// (`ph_report_violations`).
        case trap
        /// The process is killed with SIGSYS at once.
        case kill

        var rawValue: UInt32 {
            switch self {
            case .allow: SCMP_ACT_ALLOW
            case .fail(let code): 0x0005_0000 | (UInt32(code) & 0xffff)  // SCMP_ACT_ERRNO(code)
            case .trap: SCMP_ACT_TRAP
            case .kill: SCMP_ACT_KILL_PROCESS
            }
        }
    }

    /// A test of one argument of a call (`scmp_arg_cmp`).
    package struct Condition {
        let comparison: scmp_arg_cmp

        /// Argument `index` (0 to 5) equals `value`.
        package static func argument(_ index: UInt32, equals value: UInt64) -> Condition {
            Condition(comparison: scmp_arg_cmp(arg: index, op: SCMP_CMP_EQ, datum_a: value, datum_b: 0))
        }
        /// Argument `index` differs from `value`.
        package static func argument(_ index: UInt32, differsFrom value: UInt64) -> Condition {
            Condition(comparison: scmp_arg_cmp(arg: index, op: SCMP_CMP_NE, datum_a: value, datum_b: 0))
        }
        /// Argument `index`, masked with `mask`, equals `value`.
        package static func argument(_ index: UInt32, masked mask: UInt64, equals value: UInt64) -> Condition {
            Condition(comparison: scmp_arg_cmp(arg: index, op: SCMP_CMP_MASKED_EQ, datum_a: mask, datum_b: value))
        }
    }

    private let context: scmp_filter_ctx
    private let unlisted: Action

    /// A filter whose calls not named by a rule get `unlisted`; a call of
    /// another architecture than the process's (a 32-bit `int 0x80` from a
    /// 64-bit process, an x32 call) is trapped (``Action/trap``), so that
    /// its handler says what it was (``isNative(architecture:number:)``).
    package init(unlisted: Action) throws(Errno) {
        guard let context = seccomp_init(unlisted.rawValue) else { throw Errno(call: "seccomp_init", code: ENOMEM) }
        self.context = context
        self.unlisted = unlisted
        // Every thread of the process, not the calling one alone.
        _ = seccomp_attr_set(context, SCMP_FLTATR_CTL_TSYNC, 1)
        _ = seccomp_attr_set(context, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_TRAP)
    }

    deinit { seccomp_release(context) }

    /// The number of the system call `name` on this architecture, nil when
    /// it has none here (or libseccomp does not know it).
    static func number(of name: String) -> Int32? {
        let number = seccomp_syscall_resolve_name(name)
        return number < 0 ? nil : number
    }

    /// The name of system call `number` on this architecture, nil when unknown.
    package static func name(of number: Int32) -> String? {
        guard let name = seccomp_syscall_resolve_num_arch(UInt32(SCMP_ARCH_NATIVE), number) else { return nil }
        defer { free(name) }
        return String(cString: name)
    }

    /// The x32 ABI's calls: x86-64's architecture, their number with this bit.
    static let x32SystemCallBit: Int32 = 0x4000_0000

    /// `AUDIT_ARCH_*` values (linux/audit.h), which are libseccomp's
    /// architecture tokens too (`SCMP_ARCH_*`; x32's is its own).
    private enum Architecture {
        static let x86_64: UInt32 = 0xC000_003E
        static let i386: UInt32 = 0x4000_0003
        static let x32: UInt32 = 0x4000_003E
        static let aarch64: UInt32 = 0xC000_00B7
        static let arm: UInt32 = 0x4000_0028
    }

    /// Whether a call the kernel reported as of `architecture` (an
    /// `AUDIT_ARCH_*` value, a SIGSYS's `si_arch`) and `number` is one of
    /// this process's own ABI: not an i386 call (`int 0x80`), not an x32 one.
    package static func isNative(architecture: UInt32, number: Int32) -> Bool {
        let native = ph_native_audit_arch()
        guard architecture == native else { return false }
        return native != Architecture.x86_64 || number & x32SystemCallBit == 0
    }

    /// The name of the ABI of a call that is not native
    /// (``isNative(architecture:number:)``): `i386`, `x32`, `arm`... and
    /// the name of the call in it, when libseccomp knows it.
    package static func foreignCall(architecture: UInt32, number: Int32) -> (abi: String, call: String?) {
        let token: UInt32
        let abi: String
        if architecture == Architecture.x86_64 && number & x32SystemCallBit != 0 {
            (token, abi) = (Architecture.x32, "x32")
        } else {
            token = architecture
            switch architecture {
            case Architecture.i386: abi = "i386"
            case Architecture.arm: abi = "arm"
            case Architecture.x86_64: abi = "x86-64"
            case Architecture.aarch64: abi = "aarch64"
            default: abi = "architecture 0x\(String(architecture, radix: 16))"
            }
        }
        guard let name = seccomp_syscall_resolve_num_arch(token, number) else { return (abi, nil) }
        defer { free(name) }
        return (abi, String(cString: name))
    }

    /// Gives `call` the action `action` when every condition holds (rules
    /// of one call with the same action are alternatives). A call this
    /// architecture does not have is skipped: returns false. A rule whose
    /// action is the filter's `unlisted` one is what the filter does
    /// anyway (libseccomp refuses it): it is said, not added.
    @discardableResult
    package func add(_ action: Action, _ call: String, when conditions: [Condition] = []) throws(Errno) -> Bool {
        guard let number = Self.number(of: call) else { return false }
        guard action != unlisted else { return true }
        let comparisons = conditions.map(\.comparison)
        let status = comparisons.withUnsafeBufferPointer {
            seccomp_rule_add_array(context, action.rawValue, number, UInt32($0.count), $0.baseAddress)
        }
        guard status == 0 else { throw Errno(call: "seccomp_rule_add", code: -status) }
        return true
    }

    /// Installs the handlers that end this process as its sandbox says
    /// (`ph_report_violations`), before a filter is loaded (which then
    /// allows no handler for SIGSYS): a call stopped by ``Action/trap`` is
    /// written to `violations` as one `ph_violation` record, then the
    /// process ends with SIGSYS. As process 1 of a PID namespace
    /// (`asNamespaceInit`), which no signal it sends itself can end, each
    /// signal that would end another process is written there too, and the
    /// process exits with 128 + the signal, which its parent reads as the
    /// signal. Without `violations` the process still ends, unreported.
    /// - Throws: `sigaction` and its errno.
    package static func reportViolations(to violations: FileDescriptor?, asNamespaceInit: Bool) throws(Errno) {
        guard ph_report_violations(violations?.rawValue ?? -1, asNamespaceInit ? 1 : 0) == 0 else {
            throw Errno(call: "sigaction", code: errno)
        }
    }

    /// Loads the filter on the process (for ever; it needs no_new_privs).
    package func load() throws(Errno) {
        let status = seccomp_load(context)
        guard status == 0 else { throw Errno(call: "seccomp_load", code: -status) }
    }
}
