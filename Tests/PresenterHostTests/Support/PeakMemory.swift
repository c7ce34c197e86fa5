import Foundation

/// The most memory a program held, measured where the test process's own
/// size cannot leak into it: under a small python3 parent that forks it,
/// waits for it with wait4 and writes its `ru_maxrss` (the program's, or
/// that of a process it reaped) to a file, then ends as the program did.
///
/// Why not wait4 from the test process: Linux counts in a child's
/// `ru_maxrss` the resident size of the address space it had before its
/// `exec`, which is the parent's (copied by fork, shared by vfork). Late
/// in a full run the test process holds over 100 MB, and every host it
/// started "peaked" at that.
enum PeakMemory {
    /// The parent: the program gets SIGKILL when it dies (a watchdog that
    /// kills it leaves nothing behind) and SIGPIPE's default back (python
    /// ignores it, and an exec would keep that).
    private static let parent = """
        import ctypes, os, signal, sys
        pid = os.fork()
        if pid == 0:
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            if os.getppid() == 1:
                os._exit(137)
            os.execv(sys.argv[2], sys.argv[3:])
        while True:
            try:
                _, status, usage = os.wait4(pid, 0)
                break
            except InterruptedError:
                pass
        with open(sys.argv[1], "w") as report:
            report.write(str(usage.ru_maxrss))
        if os.WIFSIGNALED(status):
            signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
            os.kill(os.getpid(), os.WTERMSIG(status))
        os._exit(os.waitstatus_to_exitcode(status))
        """

    /// The executable and argv that run `executable` with `arguments`
    /// (argv[0] included) under the parent, which writes its peak to `report`.
    static func measuring(_ executable: String, _ arguments: [String], report: String) -> (String, [String]) {
        ("/usr/bin/python3", ["python3", "-c", parent, report, executable] + arguments)
    }

    /// The peak in bytes the parent wrote to `report` (0 when it wrote none:
    /// it was killed).
    static func bytes(in report: String) -> Int {
        ((try? String(contentsOfFile: report, encoding: .utf8)).flatMap { Int($0) } ?? 0) * 1024
    }
}
