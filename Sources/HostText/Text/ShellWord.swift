/// A word as a person would type it in a POSIX shell: the one quoting rule
/// for the command lines the host prints (run's default working message,
/// the commands `check` tells an author to run).
package enum ShellWord {
    /// `word` quoted for a POSIX shell when it holds anything but safe characters.
    package static func quoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%_+=:,./-")
        if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingEvery("'", with: "'\\''") + "'"
    }
}
