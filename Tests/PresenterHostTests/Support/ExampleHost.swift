import Foundation

/// What a test gives an example driver program (Examples/driver) as its
/// `presenter-host`: a script that runs the built binary's `drive` with the
/// program's arguments and 5 s for each presenter hook (on a loaded machine
/// the default 0.25 s is missed now and then, and the presenter is taken off
/// with a line the test does not expect), and passes the program's lines
/// on one at a time. With `holding`, it holds them after that many lines
/// until the go file exists: the state those lines made stays on the screen
/// until the test saw it (the example's own 0.2 s pauses are a guess that a
/// loaded machine misses).
enum ExampleHost {
    static func make(holding: (lines: Int, go: GoFile)? = nil) throws -> URL {
        let url = TestPaths.temporaryDirectory("example-host").appendingPathComponent("presenter-host")
        let drive = "\(TmuxSession.quoted(TestPaths.binary.path)) \"$@\" --hook-timeout 5"
        var script = "#!/bin/sh\nexec \(drive)\n"
        if let (lines, go) = holding {
            script = """
                #!/bin/sh
                n=0
                while IFS= read -r line; do
                    printf '%s\\n' "$line"
                    n=$((n + 1))
                    if [ "$n" -eq \(lines) ]; then \(go.wait); fi
                done | \(drive)

                """
        }
        try writeExecutable(Array(script.utf8), to: url)
        return url
    }
}
