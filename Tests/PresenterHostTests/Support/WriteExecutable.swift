import Foundation

/// Writes an executable file that no process of ours ever had open for
/// writing: a child that another test spawns at that moment inherits every
/// descriptor until it execs, and executing a file open for writing fails
/// with "Text file busy". install(1), in a child of its own, writes it.
func writeExecutable(_ bytes: [UInt8], to url: URL) throws {
    let source = url.appendingPathExtension("source")
    try Data(bytes).write(to: source)
    try copyExecutable(source, to: url)
}

/// Copies the file at `source` to `url` as an executable the same way
/// (install(1) writes it), so that it can be run at once: a copy made here
/// (`FileManager.copyItem`) fails now and then with "Text file busy".
func copyExecutable(_ source: URL, to url: URL) throws {
    let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/install"), ["-m", "755", source.path, url.path])
    guard result.status == 0 else { throw CocoaError(.fileWriteUnknown) }
}

/// Copies the built presenter-host into `folder` with presenter-host-plugins
/// beside it, where the host looks for it (the processes that run plugin
/// code start from it), and returns the copy of presenter-host.
@discardableResult
func copyHost(into folder: URL) throws -> URL {
    try copyExecutable(TestPaths.pluginsBinary, to: folder.appendingPathComponent("presenter-host-plugins"))
    let host = folder.appendingPathComponent("presenter-host")
    try copyExecutable(TestPaths.binary, to: host)
    return host
}
