import Foundation
import Glibc
import Testing

/// The settings file and its folder, with the real binary: read only when
/// they are the user's (or root's) and no one else may write them, as a
/// plugin is; otherwise one line naming the file and the command to run,
/// and the built-in default (mbhud) shows.
@Suite struct SettingsFileOwnerTests {
    /// A settings folder with `config` saying a presenter that is not
    /// installed: read, it is named on stderr; refused, it is not.
    private func folder() throws -> (root: URL, config: String, environment: [String: String]) {
        let root = TestPaths.temporaryDirectory("settings-owner")
        let folder = root.appendingPathComponent("presenter-host")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(chmod(folder.path, 0o755) == 0)
        let config = folder.path + "/config"
        try Data("presenter = from-file\n".utf8).write(to: URL(fileURLWithPath: config))
        #expect(chmod(config, 0o644) == 0)
        return (root, config, ["XDG_CONFIG_HOME": root.path])
    }

    /// The one line said, then plain mode's working line: the command ran, with mbhud.
    private func refused(_ environment: [String: String]) throws -> String {
        let result = try ProcessRunner.host(["run", "--", "true"], environment: environment)
        #expect(result.status == 0)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2 && lines.last == "true", "\(result.stderr)")
        #expect(!result.stderr.contains("from-file"), "\(result.stderr)")
        return String(lines.first ?? "")
    }

    @Test func theUsersOwnFileIsRead() throws {
        let (root, _, environment) = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try ProcessRunner.host(["run", "--", "true"], environment: environment)
        #expect(result.stderr.contains("no presenter 'from-file'"), "\(result.stderr)")
    }

    @Test(arguments: [0o664, 0o646] as [mode_t])
    func aFileOthersMayWriteIsRefused(_ mode: mode_t) throws {
        let (root, config, environment) = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(chmod(config, mode) == 0)
        #expect(
            try refused(environment)
                == "presenter-host: \(config): the settings file is writable by group or others: chmod go-w \(config) (ignored: going on without it)"
        )
    }

    @Test func aFolderOthersMayWriteIsRefused() throws {
        let (root, config, environment) = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.path + "/presenter-host"
        #expect(chmod(folder, 0o777) == 0)
        #expect(
            try refused(environment)
                == "presenter-host: \(folder): the settings folder is writable by group or others: chmod go-w \(folder) (ignored: going on without it)"
        )
        _ = config
    }

    @Test(.enabled(if: geteuid() == 0, "only root can give a file to another user"))
    func aFileOfAnotherUserIsRefused() throws {
        let (root, config, environment) = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(chown(config, 4321, 4321) == 0)
        #expect(
            try refused(environment)
                == "presenter-host: \(config): the settings file is owned by uid 4321, not by you or root: chown root \(config), or remove it (ignored: going on without it)"
        )
        let folder = root.path + "/presenter-host"
        #expect(chown(folder, 4321, 4321) == 0)
        #expect(
            try refused(environment).hasPrefix("presenter-host: \(folder): the settings folder is owned by uid 4321"))
    }

    @Test func aSymbolicLinkIsRefused() throws {
        let (root, config, environment) = try folder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.moveItem(atPath: config, toPath: root.path + "/real-config")
        try FileManager.default.createSymbolicLink(atPath: config, withDestinationPath: root.path + "/real-config")
        #expect(
            try refused(environment)
                == "presenter-host: \(config): the settings file is a symbolic link; put the file itself there, or remove it (ignored: going on without it)"
        )
    }
}
