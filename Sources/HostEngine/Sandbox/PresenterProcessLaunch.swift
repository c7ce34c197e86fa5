import Glibc
import HostPlugins
import HostSandbox
import HostSystem

/// A presenter process started before its engine needs it.
///
/// `run` starts one as soon as its arguments are parsed: the process's own
/// start (a second Swift process, then its plugin) then overlaps the host's
/// registry load and the command's spawn instead of following them, and the
/// run waits that much less for it at the end (docs/BENCHMARKS.md). The
/// ``PresenterProcess`` made with it (``PresenterProcessConfiguration/launch``)
/// takes the process at its first call and sends it its configuration; until
/// then the process waits for it. A launch nobody took (the run ended with an
/// error first) closes its channel, kills the process and reaps it.
package final class PresenterProcessLaunch: Sendable, Equatable {
    package static func == (a: PresenterProcessLaunch, b: PresenterProcessLaunch) -> Bool { a === b }

    /// What a spawn gave: the process, the host's end of its channel, and the
    /// read end of its stdout and stderr.
    struct Started {
        let pid: pid_t
        let channel: FileDescriptor
        let log: FileDescriptor
        /// Where its sandbox says what stopped it (``ConfinementViolation``), non-blocking.
        let violations: FileDescriptor
    }
    /// Why it could not be started (``PresenterFailure/Reason/couldNotStart(_:)``'s text).
    struct Failure: Error {
        let reason: String
    }

    /// The spawn's outcome until someone takes it.
    private let outcome: LockedValue<Result<Started, Failure>?>
    /// The executable, arguments and environment it was started with.
    let configuration: PresenterProcessConfiguration

    /// Starts the process now (never waits for it).
    package init(_ configuration: PresenterProcessConfiguration) {
        self.configuration = configuration
        outcome = LockedValue(Self.spawn(configuration))
    }

    deinit {
        guard case .success(let started) = outcome.withLock({ $0 }) else { return }
        try? started.channel.close()
        try? started.log.close()
        try? started.violations.close()
        _ = ProcessExit.end(started.pid, waitingUpTo: 0, group: true)
    }

    /// The process's id while nobody took it; nil once taken, or when it
    /// could not be started.
    var pid: pid_t? {
        outcome.withLock {
            guard case .success(let started) = $0 else { return nil }
            return started.pid
        }
    }

    /// The process, once: nil when it was taken already, or when
    /// `configuration` (the one that holds this launch, built once with it)
    /// was since changed in what the process was started with: the
    /// executable, its environment, the policy. That one starts its own,
    /// never a process started with other sandbox inputs.
    func take(for configuration: PresenterProcessConfiguration) -> Result<Started, Failure>? {
        let started = self.configuration
        guard
            configuration.executable == started.executable && configuration.environment == started.environment
                && configuration.hostEnvironment == started.hostEnvironment && configuration.policy == started.policy
        else { return nil }
        return outcome.withLock { $0.take() }
    }

    /// `presenter-host-plugins --presenter-process HOSTPID` (the
    /// configuration's executable) through ``Spawn``: in
    /// namespaces of its own and with the environment the sandbox allows
    /// (``PluginConfinement/prepare(_:environment:setting:)``),
    /// a new session, stdin `/dev/null`, stdout and stderr on a pipe, the
    /// channel on descriptor 3, the sandbox's reports on 4, nothing else open.
    static func spawn(_ configuration: PresenterProcessConfiguration) -> Result<Started, Failure> {
        var opened: [FileDescriptor] = []
        func fail(_ reason: String) -> Result<Started, Failure> {
            opened.forEach { try? $0.close() }
            return .failure(Failure(reason: reason))
        }
        let channel: (host: FileDescriptor, process: FileDescriptor)
        let log: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        let violations: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
        do throws(Errno) {
            channel = try FileDescriptor.socketPair()
            opened += [channel.host, channel.process]
            log = try FileDescriptor.pipe()
            opened += [log.readEnd, log.writeEnd]
            violations = try FileDescriptor.pipe()
            opened += [violations.readEnd, violations.writeEnd]
        } catch {
            return fail("no \(error.call.description == "socketpair" ? "socket" : "pipe"): \(errnoText(error.code))")
        }
        var options = Spawn.Options()
        options.descriptors = [
            .standardInput: .null(O_RDONLY), .standardOutput: .descriptor(log.writeEnd),
            .standardError: .descriptor(log.writeEnd), PresenterProcessServer.channel: .descriptor(channel.process),
            PresenterProcessServer.violations: .descriptor(violations.writeEnd),
        ]
        options.closeOthers = true
        options.newSession = true
        // Swift's crash reporter off: a crash of the presenter process must
        // end it at once, without a report or a prompt that waits for a key.
        PluginConfinement.prepare(
            &options, environment: configuration.hostEnvironment,
            setting: ["SWIFT_BACKTRACE": "enable=no"].merging(configuration.environment) { $1 })
        let spawned = Spawn.launch(
            configuration.executable, ["presenter-host", PresenterProcessServer.flag, String(ProcessSelf.id)], options)
        for end in [channel.process, log.writeEnd, violations.writeEnd] { try? end.close() }
        opened = [channel.host, log.readEnd, violations.readEnd]
        guard case .success(let child) = spawned else {
            var reason = "cannot run \(configuration.executable)"
            if case .failure(let failure) = spawned { reason += ": \(errnoText(failure.code))" }
            return fail(reason)
        }
        try? violations.readEnd.setNonBlocking()
        return .success(
            Started(pid: child.pid, channel: channel.host, log: log.readEnd, violations: violations.readEnd))
    }
}
