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
/// then the process waits for it. The launch only forks: whether the exec
/// worked is read when the process is taken (on the presenter thread), so
/// the thread that starts it, which goes on to start the command, never
/// waits for the sandbox's setup and exec. A launch nobody took (the run
/// ended with an error first) closes its channel, kills the process and
/// reaps it.
package final class PresenterProcessLaunch: Sendable, Equatable {
    package static func == (a: PresenterProcessLaunch, b: PresenterProcessLaunch) -> Bool { a === b }

    /// Why it could not be started (``PresenterFailure/Reason/couldNotStart(_:)``'s text).
    struct Failure: Error {
        let reason: String
    }

    /// What the fork gave, its exec not yet known to have worked: the
    /// process and the host's ends of its descriptors.
    struct Forked {
        let beginning: Spawn.Beginning
        let channel: FileDescriptor
        let log: FileDescriptor
        let violations: FileDescriptor

        /// Closes the host's ends of its channel and output (the process
        /// then ends at once, once it runs); the report is ``Spawn/Beginning``'s.
        func close() {
            for end in [channel, log, violations] { try? end.close() }
        }
    }

    /// The fork's outcome until someone takes it.
    private let outcome: LockedValue<Result<Forked, Failure>?>
    /// The executable, arguments and environment it was started with.
    let configuration: PresenterProcessConfiguration

    /// Starts the process now (never waits for it, not even for its exec).
    package init(_ configuration: PresenterProcessConfiguration) {
        self.configuration = configuration
        outcome = LockedValue(Self.fork(configuration))
    }

    deinit {
        guard case .success(let forked) = outcome.withLock({ $0 }) else { return }
        forked.close()
        try? forked.beginning.report.close()
        _ = ProcessExit.end(forked.beginning.pid, waitingUpTo: 0, group: true)
    }

    /// The process's id while nobody took it; nil once taken, or when it
    /// could not be started.
    var pid: pid_t? {
        outcome.withLock {
            guard case .success(let forked) = $0 else { return nil }
            return forked.beginning.pid
        }
    }

    /// Kills the process while nobody took it (``PresenterProcess/dismiss``):
    /// reaped still by whoever takes it, or by this launch's end.
    func kill() {
        outcome.withLock { outcome in
            if case .success(let forked) = outcome { ProcessExit.kill(forked.beginning.pid) }
        }
    }

    /// The process, once, its exec not waited for (the taker does that
    /// where it first waits for the process): nil when it was taken already, or when
    /// `configuration` (the one that holds this launch, built once with it)
    /// was since changed in what the process was started with: the
    /// executable, its environment, the policy. That one starts its own,
    /// never a process started with other sandbox inputs.
    func take(for configuration: PresenterProcessConfiguration) -> Result<Forked, Failure>? {
        let started = self.configuration
        guard
            configuration.executable == started.executable && configuration.environment == started.environment
                && configuration.hostEnvironment == started.hostEnvironment && configuration.policy == started.policy
        else { return nil }
        return outcome.withLock { $0.take() }
    }

    /// `presenter-host-plugins --presenter-process HOSTPID` (the
    /// configuration's executable), forked through ``Spawn/begin(_:_:_:)``
    /// (its exec not waited for): in
    /// namespaces of its own and with the environment the sandbox allows
    /// (``PluginConfinement/prepare(_:environment:setting:)``),
    /// a new session, stdin `/dev/null`, stdout and stderr on a pipe, the
    /// channel on descriptor 3, the sandbox's reports on 4, nothing else open.
    static func fork(_ configuration: PresenterProcessConfiguration) -> Result<Forked, Failure> {
        var opened: [FileDescriptor] = []
        func fail(_ reason: String) -> Result<Forked, Failure> {
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
        let spawned = Spawn.begin(
            configuration.executable, ["presenter-host", PresenterProcessServer.flag, String(ProcessSelf.id)], options)
        for end in [channel.process, log.writeEnd, violations.writeEnd] { try? end.close() }
        opened = [channel.host, log.readEnd, violations.readEnd]
        guard case .success(let beginning) = spawned else {
            var reason = "cannot run \(configuration.executable)"
            if case .failure(let failure) = spawned { reason += ": \(errnoText(failure.code))" }
            return fail(reason)
        }
        try? violations.readEnd.setNonBlocking()
        return .success(
            Forked(beginning: beginning, channel: channel.host, log: log.readEnd, violations: violations.readEnd))
    }
}
