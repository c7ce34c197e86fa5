import HostSystem
import Testing

/// A path split into its folder and last name, the one way every layer
/// splits one: a bare name, a name in the root, the root itself and
/// trailing slashes each have one answer.
@Suite struct PathNameTests {
    @Test(arguments: [
        ("/usr/lib/presenter-host/libMBHud.so", "/usr/lib/presenter-host", true, "libMBHud.so"),
        ("lib/libMBHud.so", "lib", true, "libMBHud.so"),
        ("libMBHud.so", ".", false, "libMBHud.so"),
        ("/libMBHud.so", "/", false, "libMBHud.so"),
        ("/", "/", false, ""),
        ("", ".", false, ""),
        // The folder that holds the last name, as for the name without its slash.
        ("/home/me/plugins/", "/home/me", true, "plugins"),
        ("/home//", "/", false, "home"),
    ])
    func splitsAtTheLastSlash(path: String, parent: String, belowRoot: Bool, last: String) {
        let name = PathName(path)
        #expect(name.parent == parent)
        #expect(name.hasParentBelowRoot == belowRoot)
        #expect(name.lastComponent == last)
    }

    @Test func aParentsParentWalksUpToTheRoot() {
        var path = "/usr/lib/presenter-host"
        var seen: [String] = []
        while PathName(path).hasParentBelowRoot {
            path = PathName(path).parent
            seen.append(path)
        }
        #expect(seen == ["/usr/lib", "/usr"])
        #expect(PathName(path).parent == "/")
    }
}
