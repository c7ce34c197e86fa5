import HostSystem
import SystemShims

#if canImport(Glibc)
    import Glibc
#endif

/// A rule of the sandbox that a process running plugin code broke, as its
/// SIGSYS handler reported it (`ph_report_violations`): the call that the
/// seccomp filter stopped, and the rule it would have broken, in words.
public struct ConfinementViolation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The system call, by name (its number where this architecture has no name for it).
    public let call: String
    /// The call with the arguments that say what it aimed at: `kill(4242, SIGKILL)`,
    /// `socket(AF_INET, SOCK_STREAM)`.
    public let invocation: String
    /// What the plugin tried to do: "send SIGKILL to another process".
    public let attempt: String

    /// "it tried to send SIGKILL to another process (kill(4242, SIGKILL))".
    public var description: String { "it tried to \(attempt) (\(invocation))" }

    /// What the handler wrote: a stop, or (process 1 of a PID namespace) a
    /// signal it sent itself, which it ended with as `128 + signal`.
    package enum Record: Equatable, Sendable {
        case stopped(ConfinementViolation)
        case raised(Int32)
    }

    /// The records in `bytes` (whole `ph_violation`s; anything else is
    /// skipped: the descriptor is the plugin's to write too, and a forged
    /// record can only change the words said of its own end).
    static func records(in bytes: [UInt8]) -> [Record] {
        let size = MemoryLayout<ph_violation>.size
        var records: [Record] = []
        var offset = 0
        while offset + size <= bytes.count {
            let record = bytes[offset..<(offset + size)].withUnsafeBytes { $0.loadUnaligned(as: ph_violation.self) }
            offset += size
            guard record.magic == PH_VIOLATION_MAGIC else { continue }
            switch Int32(record.kind) {
            case PH_VIOLATION_SYSTEM_CALL:
                let arguments = withUnsafeBytes(of: record.args) { Array($0.bindMemory(to: UInt64.self)) }
                records.append(
                    .stopped(
                        ConfinementViolation(number: record.number, arguments: arguments, architecture: record.arch)))
            case PH_VIOLATION_SIGNAL where record.number > 0 && record.number < 65:
                records.append(.raised(record.number))
            default:
                continue
            }
        }
        return records
    }

    /// How a process that runs plugin code ended, its sandbox's reports
    /// read: stopped by the sandbox, ended by a signal (one it sent itself
    /// as process 1 of its PID namespace, which it ended with as
    /// 128 + the signal, counts as that signal), or exited.
    package enum Ending: Equatable, Sendable {
        case stopped(ConfinementViolation)
        case signaled(Int32)
        case exited(Int32)

        /// `sandboxed`: the process was under a seccomp filter, so a
        /// SIGSYS with no record is the filter's.
        package init(_ termination: ChildProcess.Termination, records: [Record], sandboxed: Bool = true) {
            for record in records.reversed() {
                switch (record, termination) {
                case (.stopped(let violation), .signaled(SIGSYS)):
                    self = .stopped(violation)
                    return
                case (.raised(let signal), .exited(let status)) where status == 128 + signal:
                    self = .signaled(signal)
                    return
                default:
                    continue
                }
            }
            switch termination {
            case .signaled(SIGSYS) where sandboxed:
                // The filter stopped a call made with SIGSYS blocked (glibc's
                // system(), popen() and posix_spawn() block every signal
                // around their clone): the kernel ended the process before
                // its handler could say which call it was.
                self = .stopped(.unknown)
            case .signaled(let signal): self = .signaled(signal)
            case .exited(let status): self = .exited(status)
            }
        }
    }

    /// Reads the records waiting on `fd` (non-blocking, or at its end).
    package static func read(_ fd: FileDescriptor) -> [Record] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while let count = try? fd.read(into: &chunk), count > 0, bytes.count < 1 << 16 {
            bytes += chunk[..<count]
        }
        return records(in: bytes)
    }

    /// A stop the handler could not report (see ``Ending``): glibc's
    /// system(), popen() and posix_spawn() block every signal around the
    /// clone that starts their process, the one stopped call that comes
    /// with its signals blocked.
    static let unknown = ConfinementViolation(call: "clone", invocation: "clone", attempt: "start a process")

    private init(call: String, invocation: String, attempt: String) {
        (self.call, self.invocation, self.attempt) = (call, invocation, attempt)
    }

    /// What system call `number` of `architecture` (its `AUDIT_ARCH_*`) with
    /// `arguments` tried, in words. A call of another ABI than the
    /// process's (i386's `int 0x80`, x32) is said as such: its number names
    /// another call in this one's table.
    init(number: Int32, arguments: [UInt64], architecture: UInt32) {
        guard SeccompFilter.isNative(architecture: architecture, number: number) else {
            let (abi, name) = SeccompFilter.foreignCall(architecture: architecture, number: number)
            let said = "\(abi) \(name ?? "system call \(number & ~0x4000_0000)")"
            (call, invocation, attempt) = (said, said, "make a system call of another architecture")
            return
        }
        let name = SeccompFilter.name(of: number) ?? "system call \(number)"
        let int = { (index: Int) -> Int32 in Int32(truncatingIfNeeded: arguments.count > index ? arguments[index] : 0) }
        call = name
        switch name {
        case "execve", "execveat":
            (attempt, invocation) = ("run a program", name)
        case "fork", "vfork", "clone", "clone3":
            (attempt, invocation) = ("start a process", name)
        case "kill", "tkill", "rt_sigqueueinfo", "pidfd_send_signal":
            let signal = int(1)
            attempt = "send \(SignalName.of(signal)) to another process"
            invocation =
                name == "pidfd_send_signal"
                ? "\(name)(\(SignalName.of(signal)))" : "\(name)(\(int(0)), \(SignalName.of(signal)))"
        case "tgkill", "rt_tgsigqueueinfo":
            attempt = "send \(SignalName.of(int(2))) to another process"
            invocation = "\(name)(\(int(0)), \(int(1)), \(SignalName.of(int(2))))"
        case "ptrace":
            (attempt, invocation) = ("trace another process", "ptrace(\(int(0)), \(int(1)))")
        case "process_vm_readv", "process_vm_writev":
            (attempt, invocation) = ("reach into the memory of another process", "\(name)(\(int(0)))")
        case "pidfd_open", "pidfd_getfd", "kcmp":
            (attempt, invocation) = ("reach another process", "\(name)(\(int(0)))")
        case "socket":
            let family = int(0), kind = int(1) & 0xf
            (attempt, invocation) = (
                Self.socketAttempt(family: family, type: kind),
                "socket(\(Self.familyName(family)), \(Self.typeName(kind)))"
            )
        case "connect", "bind", "listen", "accept", "accept4":
            (attempt, invocation) = ("\(name) a socket", name)
        default:
            (attempt, invocation) = ("make a system call presenters may not make", name)
        }
    }

    private static func socketAttempt(family: Int32, type: Int32) -> String {
        switch family {
        case AF_INET, AF_INET6:
            return type == Int32(SOCK_DGRAM.rawValue) ? "send over the network (UDP)" : "connect to a network address"
        case AF_NETLINK: return "talk to the kernel over netlink"
        case AF_PACKET: return "read or write raw network packets"
        default: return "open a socket"
        }
    }

    private static func familyName(_ family: Int32) -> String {
        switch family {
        case AF_INET: "AF_INET"
        case AF_INET6: "AF_INET6"
        case AF_UNIX: "AF_UNIX"
        case AF_NETLINK: "AF_NETLINK"
        case AF_PACKET: "AF_PACKET"
        default: "family \(family)"
        }
    }

    private static func typeName(_ type: Int32) -> String {
        switch type {
        case Int32(SOCK_STREAM.rawValue): "SOCK_STREAM"
        case Int32(SOCK_DGRAM.rawValue): "SOCK_DGRAM"
        case Int32(SOCK_RAW.rawValue): "SOCK_RAW"
        default: "type \(type)"
        }
    }
}
