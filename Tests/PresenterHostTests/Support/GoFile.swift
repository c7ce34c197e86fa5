import Foundation

/// A file whose creation lets a test's command go on: how a test holds a
/// command in a state (running, its box on the screen, a line printed) for
/// as long as it needs to look, instead of guessing how long the state lasts
/// with a sleep in the command. The command runs ``wait`` where it must
/// not go on before the test saw something; the test creates the file once
/// it did (``touch`` in the pty driver's steps, ``create()`` elsewhere).
struct GoFile {
    let path: String

    /// A go file (not created yet) in a fresh temporary folder.
    init() { path = TestPaths.temporaryDirectory("go").appendingPathComponent("go").path }

    /// A shell command that waits until the file exists (``shellWaitUntil(_:)``).
    var wait: String { shellWaitUntil("[ -e '\(path)' ]") }

    /// `sh -c` waiting for the file, then running `then`.
    func command(then: String = "exit 0") -> [String] { ["sh", "-c", wait + "; " + then] }

    /// The pty driver's step that creates the file.
    var touch: TerminalDriver.Step { .touch(path) }

    /// Creates the file.
    func create() { _ = FileManager.default.createFile(atPath: path, contents: nil) }
}
