import Foundation
import Glibc
import Testing
@testable import HostEngine
@testable import HostPlugins
@testable import HostSandbox

/// Nothing secret inside (issue 30): a process that runs plugin code gets
/// an environment of its own, built from an allow-list
/// (`PluginConfinement.passes`), never the user's API keys and tokens; and
/// it may not name its threads (PR_SET_NAME), whose names every local user
/// reads in /proc. The hostile fixture (intruder.c, `leak-environment`)
/// copies a variable's value into its thread's name, over its command line,
/// onto stderr (the presenter log) and into its description (the registry
/// cache), through the real binary; the secret must be in no process's
/// /proc/PID/comm or cmdline, in no plugin process's environ, in no
/// output, log or cache file.
@Suite("The sandbox: plugin code gets no secret of the user's environment")
struct SandboxEnvironmentTests {
    /// Where the secret is: a name the allow-list does not pass, as an API token's.
    static let secretName = "PRESENTER_TEST_API_TOKEN"
    /// A name a test build passes (INTRUDER_*): the same attempt with it
    /// shows that what the tests look for is there to be found.
    static let passedName = "INTRUDER_PASSED_TOKEN"

    /// What a run of `run` with the intruder left in /proc while its
    /// presenter process was alive, as its command recorded it: every
    /// process's comm and cmdline, and the environment of every process
    /// that runs plugin code (the ones with PRESENTER_HOST_NAMESPACES).
    struct Snapshot {
        var names: String
        var commandLines: String
        /// One environment a plugin process, its `NAME=value` entries.
        var pluginEnvironments: [[String]]
    }

    /// `run` with the intruder's leak-environment at load and show time, the
    /// secret in the environment as `variable`, which the intruder is told
    /// to copy (`layersOff` for PRESENTER_HOST_SANDBOX_OFF); the command
    /// records /proc once the intruder logged its attempt, while its
    /// presenter process runs.
    static func runAndLook(
        _ trial: IntruderTrial, secret: String, variable: String, layersOff: String = ""
    ) throws -> (IntruderTrial.HostRun, Snapshot) {
        let snapshot = trial.directory.appendingPathComponent("snapshot")
        let record = [
            "for d in /proc/[0-9]*; do cat \"$d/comm\"; done > \"$SNAPSHOT.comm\" 2>/dev/null",
            "for d in /proc/[0-9]*; do tr '\\0' ' ' < \"$d/cmdline\"; echo; done > \"$SNAPSHOT.cmdline\" 2>/dev/null",
            // The plugin processes of this run: the host's variable for
            // them and this trial's token (a test build passes INTRUDER_*).
            "for d in /proc/[0-9]*; do e=$(tr '\\0' '\\n' < \"$d/environ\" 2>/dev/null); case \"$e\" in"
                + " *PRESENTER_HOST_NAMESPACES=*) case \"$e\" in *\"INTRUDER_TOKEN=$INTRUDER_TOKEN\"*)"
                + " printf -- '--\\n%s\\n' \"$e\";; esac;; esac; done > \"$SNAPSHOT.environ\"",
        ].joined(separator: "; ")
        let command = [
            "sh", "-c",
            "printf 'before\\n'; "
                + shellWaitUntil("grep -qsE ': attempte[d] |going on [w]ith' \"$INTRUDER_LOG\"")
                + "; \(record); printf 'after'; exit 3",
        ]
        let arguments = Array(trial.runArguments.dropLast(IntruderTrial.command.count)) + command
        var environment = trial.environment("leak-environment", when: .both, layersOff: layersOff)
        environment[variable] = secret
        environment["INTRUDER_SECRET_NAME"] = variable
        environment["SNAPSHOT"] = snapshot.path
        // In a terminal, where `run` runs its presenter.
        let run = try trial.run(arguments, environment: environment, inTerminal: true)
        func read(_ suffix: String) -> String {
            (try? String(contentsOfFile: snapshot.path + "." + suffix, encoding: .utf8)) ?? ""
        }
        let environments = read("environ").components(separatedBy: "--\n").dropFirst().map {
            $0.split(separator: "\n").map(String.init)
        }
        return (run, Snapshot(names: read("comm"), commandLines: read("cmdline"), pluginEnvironments: environments))
    }

    @Test func aPresenterFindsNoSecretToPublish() throws {
        let trial = try IntruderTrial()
        let secret = "token-\(UUID().uuidString)"
        let (run, seen) = try Self.runAndLook(trial, secret: secret, variable: Self.secretName)
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stdout == IntruderTrial.commandStdout)
        // It tried, in the presenter process: the variable was not there,
        // and it could not name its thread.
        #expect(
            trial.log.contains(
                "fixture.intruder: info: attempted leak-environment: \(Self.secretName) not set; "
                    + "prctl(PR_SET_NAME): Operation not permitted; argv: "),
            "\(trial.log)")
        // Its constructor ran there too, and printed what it found (the log).
        #expect(trial.log.contains("printed: intruder: leaked:\n"), "\(trial.log)")
        // What it wrote over its command line is there (the snapshot saw
        // its process), not in its name.
        let lines = seen.commandLines.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains("leaked:"), "\(seen.commandLines)")
        #expect(!seen.names.split(separator: "\n").contains("leaked:"), "\(seen.names)")
        // The secret: nowhere.
        #expect(!seen.names.contains(secret))
        #expect(!seen.commandLines.contains(secret))
        #expect(!seen.pluginEnvironments.isEmpty, "no process that runs plugin code was found")
        for environment in seen.pluginEnvironments {
            #expect(!environment.contains { $0.contains(secret) }, "\(environment)")
            // The allow-list, and nothing else of the user's (the test's
            // environment has PATH, HOME...).
            let names = environment.compactMap { $0.split(separator: "=", maxSplits: 1).first.map(String.init) }
            let unexpected = names.filter { !Self.passesInATestBuild($0) }
            #expect(unexpected == [], "\(environment)")
            #expect(!names.contains("HOME") && !names.contains("PATH") && !names.contains(Self.secretName))
        }
        for (name, text) in run.outputs + [("the log", trial.log)] {
            #expect(!text.contains(secret), "the secret in \(name)")
        }
        let effects = trial.effects(outputs: run.outputs)
        #expect(effects.isNone, "\(effects)")
    }

    /// The same attempt with a variable a test build passes, and seccomp
    /// off so that the thread may be named: the secret is then in the
    /// presenter process's comm and cmdline and in the log. What the test
    /// above looks for is there to be found.
    @Test func theSameAttemptWithAVariableThatPassesIsSeen() throws {
        let trial = try IntruderTrial()
        let secret = "token-\(UUID().uuidString)"
        let (run, seen) = try Self.runAndLook(trial, secret: secret, variable: Self.passedName, layersOff: "seccomp")
        #expect(run.status == 3, "\(run.stderr)")
        // comm holds the first 15 bytes ("leaked:token-XX"), the command
        // line as many as its arguments took (some 40).
        #expect(seen.names.contains("leaked:" + secret.prefix(8)), "\(seen.names)")
        #expect(seen.commandLines.contains("leaked:" + secret.prefix(24)), "\(seen.commandLines)")
        #expect(seen.pluginEnvironments.contains { $0.contains("\(Self.passedName)=\(secret)") })
        #expect(trial.log.contains("leaked:" + secret), "\(trial.log)")
    }

    /// From a constructor in the scan helper, under `--list` with the
    /// registry cache on, and under `check`: the description it makes of
    /// the variable (which --list -v prints and the cache keeps) holds no
    /// secret, on a cold and on a warm cache.
    @Test func aConstructorFindsNoSecretForTheCacheOrCheck() throws {
        let trial = try IntruderTrial()
        let secret = "token-\(UUID().uuidString)"
        let cache = trial.directory.appendingPathComponent("cache")
        var environment = trial.environment("leak-environment", when: .load)
        environment[Self.secretName] = secret
        environment["INTRUDER_SECRET_NAME"] = Self.secretName
        environment["XDG_CACHE_HOME"] = cache.path
        let list = ["--plugin-dir", trial.plugins.path, "--list", "-v"]
        let cold = try trial.run(list, environment: environment)
        let warm = try trial.run(list, environment: environment)
        let check = try trial.run(["check", trial.library.path], environment: environment)
        for run in [cold, warm] {
            #expect(run.status == 0, "\(run.stderr)")
            // It ran, in the scan helper, and found nothing to copy.
            #expect(
                run.stdout.text.contains("attempted leak-environment: \(Self.secretName) not set"), "\(run.stdout.text)"
            )
        }
        let cached = try FileManager.default.subpathsOfDirectory(atPath: cache.path).map {
            (try? String(contentsOfFile: cache.appendingPathComponent($0).path, encoding: .utf8)) ?? ""
        }
        #expect(cached.contains { $0.contains("fixture.intruder") }, "no registry cache in \(cache.path)")
        for (name, text) in [
            ("cold", cold.stdout.text + cold.stderr), ("warm", warm.stdout.text + warm.stderr),
            ("check", check.stdout.text + check.stderr), ("the cache", cached.joined()), ("the log", trial.log),
        ] {
            #expect(!text.contains(secret), "the secret in \(name)")
        }
    }

    /// PR_SET_NAME is refused (EPERM, unmade): the presenter goes on, the
    /// run is untouched, and the process keeps the name the host gave it.
    @Test func aPresenterCannotNameItsThread() throws {
        let trial = try IntruderTrial()
        // In a terminal, where `run` runs its presenter: it goes on, and its outcome stays.
        let run = try trial.run(
            trial.runArguments, environment: trial.environment("set-name", when: .show), inTerminal: true)
        #expect(run.status == 3, "\(run.screen)")
        #expect(run.stdout == IntruderTrial.commandStdout)
        #expect(run.screen == ["✖ Failed: exit status 3"], "\(run.screen)")
        #expect(
            trial.log.contains(
                "fixture.intruder: info: attempted set-name: prctl(PR_SET_NAME): Operation not permitted"),
            "\(trial.log)")
        // Without seccomp the same call names it: the attempt is real.
        let off = try trial.run(
            trial.runArguments, environment: trial.environment("set-name", when: .show, layersOff: "seccomp"),
            inTerminal: true)
        #expect(off.status == 3, "\(off.screen)")
        #expect(trial.log.contains("fixture.intruder: info: attempted set-name: named INTRUDER-NAME"), "\(trial.log)")
    }

    /// The policy itself: of an environment, what passes.
    @Test func theEnvironmentIsAnAllowList() {
        let host = [
            "HOME=/home/user", "PATH=/usr/bin", "AWS_SECRET_ACCESS_KEY=x", "GITHUB_TOKEN=y", "LANG=de_DE.UTF-8",
            "LANGUAGE=de", "LC_ALL=de_DE.UTF-8", "LC_TIME=C", "TERM=xterm-256color", "NO_COLOR=token-in-a-flag",
            "LC_MY_TOKEN=secret", "LC_MESSAGES=sk-live/abc def", "LC_PAPER=" + String(repeating: "a", count: 129),
            "LD_LIBRARY_PATH=/opt/lib", "SWIFT_BACKTRACE=enable=no", "PRESENTER_HOST_DEBUG=1",
            "PRESENTER_HOST_NAMESPACES=forged", "LD_PRELOAD=/tmp/x.so", "PRESENTER_PLUGIN_PATH=/tmp", "COLORTERM=1",
            "no equals sign",
        ]
        let passed = PluginConfinement.environment(from: host, setting: ["FOR_IT": "1", "TERM": "dumb"])
        let names = passed.map { String($0.prefix { $0 != "=" }) }
        #expect(
            names == [
                "LANG", "LANGUAGE", "LC_ALL", "LC_TIME", "NO_COLOR", "LD_LIBRARY_PATH", "SWIFT_BACKTRACE",
                "PRESENTER_HOST_DEBUG", "FOR_IT", "TERM", "PRESENTER_HOST_NAMESPACES",
            ])
        #expect(passed.contains("TERM=dumb") && !passed.contains("PRESENTER_HOST_NAMESPACES=forged"))
        // NO_COLOR's presence, not its value; an LC_ name that is no
        // category, or a category whose value is no locale name, is left out.
        #expect(passed.contains("NO_COLOR=1"))
        // The presenter process's engine reads this one (--trace).
        #expect(PluginConfinement.passes(Substring(EngineNote.debugVariable)))
    }

    /// Whether a test build passes the variable `name` (what a plugin
    /// process's environment may hold here).
    static func passesInATestBuild(_ name: String) -> Bool {
        PluginConfinement.passes(Substring(name)) || name == "PRESENTER_HOST_NAMESPACES"
    }
}

extension [UInt8] {
    fileprivate var text: String { String(decoding: self, as: UTF8.self) }
}
