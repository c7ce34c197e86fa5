import Foundation
@testable import HostSystem
import Testing

/// What the dynamic loader says this process loaded: the folders Landlock
/// lets a confined process read, and the file a symbol comes from.
@Suite("Process: loaded libraries")
struct LoadedObjectsTests {
    /// Each folder a loaded library came from, once: the Swift runtime's
    /// and libc's among them, and, for a library loaded through a link to a
    /// file elsewhere (ld.so, as /lib64/ld-linux-x86-64.so.2), the folder of
    /// the file, not the link's. (The test process loads and deletes
    /// plugins all the while, so the list is not compared whole.)
    @Test func theLibraryFoldersAreTheLoadedLibrariesFolders() throws {
        let folders = ProcessSelf.libraryFolders
        #expect(Set(folders).count == folders.count, "listed twice: \(folders)")
        let real = { (path: String) in URL(fileURLWithPath: path).resolvingSymlinksInPath().path }
        let realFolders = Set(folders.map(real))
        for symbol in ["swift_retain", "getpid"] {
            let file = try #require(DynamicLibrary.loadedFile(defining: symbol))
            #expect(realFolders.contains(URL(fileURLWithPath: real(file)).deletingLastPathComponent().path), "\(file)")
        }
        let loader = "/lib64/ld-linux-x86-64.so.2"
        if FileStatus.isSymbolicLink(loader) {
            #expect(!folders.contains("/lib64"), "the link's folder, not the loader's: \(folders)")
            #expect(realFolders.contains(URL(fileURLWithPath: real(loader)).deletingLastPathComponent().path))
        }
    }

    /// The file of the library that defines a symbol; none for one no
    /// library defines.
    @Test func aSymbolsFileIsTheLibraryThatHoldsIt() throws {
        let libc = try #require(DynamicLibrary.loadedFile(defining: "getpid"))
        #expect(URL(fileURLWithPath: libc).lastPathComponent.hasPrefix("libc.so"))
        #expect(DynamicLibrary.loadedFile(defining: "no_such_symbol_anywhere_presenter_host") == nil)
    }
}
