@testable import HostPlugins
@testable import HostSandbox

/// The marking fixture (`Fixture.marking`) appends a line to
/// `$FIXTURE_MARKFILE` each time a process loads it: how the registry and
/// plugin-option tests see when plugin code ran, and where.
///
/// The sandbox lets no process that runs plugin code write a file (Landlock,
/// seccomp, a file size limit of 0, and a root of its own where the test's
/// folder is not), so those layers are off for these tests
/// (``PluginConfinement/offVariable``): what they test is the registry and
/// the options, and the sandbox has suites of its own.
enum MarkingFixture {
    /// What a host run needs for the fixture to mark `mark`.
    static func environment(mark: String) -> [String: String] {
        ["FIXTURE_MARKFILE": mark, PluginConfinement.offVariable: "landlock,seccomp,limits,namespaces"]
    }
}
