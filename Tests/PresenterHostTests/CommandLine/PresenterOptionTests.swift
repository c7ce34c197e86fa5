import Foundation
import Testing

/// `--option`, with the real binary: held to the settings file's rules (a
/// key the host does not own, a value of at most 1024 bytes with no control
/// or bidi character) and given at most 64 times; anything else is a usage
/// error (64) naming the option, before anything runs.
@Suite struct PresenterOptionTests {
    private func refusal(_ options: [String]) throws -> String {
        let result = try ProcessRunner.host(["run"] + options.flatMap { ["--option", $0] } + ["--", "true"])
        #expect(result.status == 64, "\(result.stderr)")
        return String(result.stderr.split(separator: "\n").first ?? "")
    }

    /// The host's own keys, with or without an id: the engine looks the
    /// qualified key up first, so `line.grace-ms` would beat `--grace`.
    @Test(arguments: [
        ("grace-ms=0", "'grace-ms' is the host's own option; set it with run's --grace"),
        ("line.grace-ms=60000", "'line.grace-ms' is the host's own option; set it with run's --grace"),
        ("mbhud.min-show-ms=1", "'mbhud.min-show-ms' is the host's own option; set it with --min-show"),
        ("failure-hold-ms=1", "'failure-hold-ms' is the host's own option, which no setting changes; remove it"),
        ("a.b.outcome-limit-ms=1", "'a.b.outcome-limit-ms' is the host's own option, which no setting changes"),
    ])
    func aHostKeyIsRefused(option: String, said: String) throws {
        let line = try refusal([option])
        #expect(line.hasPrefix("Error: --option: \(said)"), "\(line)")
    }

    @Test(arguments: [
        ("spinner=a\u{1B}b", #"'spinner' has a control or bidi character (\x1B); remove it"#),
        ("spinner=a\nb", #"'spinner' has a control or bidi character (\n); remove it"#),
        ("spinner=a\u{9B}b", #"'spinner' has a control or bidi character (\x9B); remove it"#),
        ("spinner=a\u{202E}b", #"'spinner' has a control or bidi character (\u{202E}); remove it"#),
        ("spinner=" + String(repeating: "x", count: 1025), "'spinner' is over 1024 bytes; shorten it"),
    ])
    func aBadValueIsRefused(option: String, said: String) throws {
        let line = try refusal([option])
        #expect(line == "Error: --option: the value of \(said)", "\(line)")
    }

    @Test func aLongValueIsAccepted() throws {
        let result = try ProcessRunner.host(
            ["run", "--option", "spinner=" + String(repeating: "x", count: 1024), "--", "true"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func atMost64AreTaken() throws {
        let options = (0..<64).flatMap { ["--option", "key-\($0)=value"] }
        let most = try ProcessRunner.host(["run"] + options + ["--", "true"])
        #expect(most.status == 0, "\(most.stderr)")
        let line = try refusal((0..<65).map { "key-\($0)=value" })
        #expect(line == "Error: --option is given more than 64 times; give at most 64", "\(line)")
    }

    /// A malformed option is quoted short: 20 KB of it is not one line.
    @Test func aMalformedOptionIsQuotedShort() throws {
        let line = try refusal([String(repeating: "\u{1B}x", count: 10_000)])
        #expect(line.hasPrefix("Error: --option needs <key>=<value>"), "\(line)")
        #expect(line.utf8.count < 400 && line.hasSuffix("…'"), "\(line)")
    }
}
