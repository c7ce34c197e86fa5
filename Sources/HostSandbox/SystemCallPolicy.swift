import HostSystem
#if canImport(Glibc)
    import Glibc
#endif

/// The system calls a process that runs plugin code may make: the seccomp
/// layer of ``PluginConfinement``.
///
/// An allow-list. What it names is what C, C++, Rust and Swift code needs to
/// run, allocate, start threads, wait, read the clock, load a library and
/// talk over the descriptors it was given. A call it does not name fails with
/// EPERM, unmade: writing, creating or removing a file, a namespace, a mount,
/// io_uring, BPF... so a library that tries one can recover. The calls by
/// which a plugin would reach beyond its process stop the process instead
/// (SIGSYS: ``SeccompFilter/Action/trap``), with the call reported to the
/// host (``ConfinementViolation``): running a program, starting a process,
/// a socket (but a Unix one, whose socket() fails with EPERM, so that a
/// library asking nscd goes on), connecting or binding one, a signal, a
/// trace, a pidfd or a memory read aimed at another process.
enum SystemCallPolicy {
    /// Calls allowed whatever their arguments.
    static let allowed = [
        // Descriptors it has, and reading what it may open.
        "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2", "pwritev2",
        "close", "close_range", "lseek", "_llseek", "fstat", "fstat64", "newfstatat", "fstatat64", "statx", "stat",
        "lstat", "stat64", "lstat64", "access", "faccessat", "faccessat2", "readlink", "readlinkat", "getdents",
        "getdents64", "getcwd", "dup", "dup2", "dup3", "pipe", "pipe2", "fadvise64", "readahead",
        "flock", "fsync", "fdatasync", "statfs", "fstatfs",
        // Waiting.
        "poll", "ppoll", "select", "pselect6", "epoll_create", "epoll_create1", "epoll_ctl", "epoll_wait",
        "epoll_pwait", "epoll_pwait2", "eventfd", "eventfd2", "timerfd_create", "timerfd_settime", "timerfd_gettime",
        "signalfd", "signalfd4", "futex", "futex_waitv", "nanosleep", "clock_nanosleep", "sched_yield",
        // Memory and threads.
        "mmap", "mmap2", "munmap", "mprotect", "mremap", "madvise", "brk", "msync", "mincore", "membarrier",
        "set_robust_list", "rseq", "set_tid_address", "arch_prctl", "exit", "exit_group",
        // Signals to itself and their handling.
        "rt_sigprocmask", "rt_sigreturn", "rt_sigpending", "rt_sigtimedwait", "rt_sigsuspend", "sigaltstack",
        "restart_syscall", "alarm", "getitimer", "setitimer", "timer_create", "timer_settime", "timer_gettime",
        "timer_getoverrun", "timer_delete",
        // Who and where it is, and the time.
        "getpid", "gettid", "getppid", "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid",
        "getgroups", "getpgrp", "getpgid", "getsid", "uname", "sysinfo", "getrlimit", "ugetrlimit", "getrusage",
        "times", "clock_gettime", "clock_getres", "gettimeofday", "time", "getcpu", "getrandom", "getpriority",
        "sched_getaffinity", "sched_getparam", "sched_getscheduler", "sched_get_priority_max",
        "sched_get_priority_min", "umask",
        // The sockets it was given (the channel to the host).
        "sendmsg", "sendto", "recvmsg", "recvfrom", "shutdown", "getsockname", "getpeername", "getsockopt",
    ]

    /// Calls that stop the process, whatever their arguments.
    static let stopping = [
        "execve", "execveat", "fork", "vfork", "ptrace", "process_vm_readv", "process_vm_writev", "pidfd_open",
        "pidfd_getfd", "pidfd_send_signal", "kcmp", "connect", "bind", "listen", "accept", "accept4",
    ]

    /// The `prctl` options allowed: reading, and glibc's naming of its
    /// anonymous mappings. Not PR_SET_NAME (EPERM, unmade): a thread's name
    /// is in /proc/PID/comm and /proc/PID/task/TID/comm, which every local
    /// user may read, so a presenter naming itself would publish what it
    /// writes there; the host names the process before it enters the
    /// sandbox, and a thread that cannot be named runs on (glibc's
    /// pthread_setname_np, Foundation and Dispatch take the failure).
    static let prctlOptions: [Int32] = [
        16,  // PR_GET_NAME
        3,  // PR_GET_DUMPABLE
        39,  // PR_GET_NO_NEW_PRIVS
        23,  // PR_CAPBSET_READ
        21,  // PR_GET_SECCOMP
        30,  // PR_GET_TIMERSLACK
        2,  // PR_GET_PDEATHSIG
        7,  // PR_GET_KEEPCAPS
        27,  // PR_GET_SECUREBITS
        0x5356_4d41,  // PR_SET_VMA: glibc names its anonymous mappings
    ]

    /// The `fcntl` commands allowed: all but F_SETOWN, F_SETOWN_EX and
    /// F_SETSIG, by which the kernel would signal another process when a
    /// descriptor is ready (SIGIO).
    static let fcntlCommands: [Int32] = [
        F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_GETLK, F_SETLK, F_SETLKW, F_DUPFD_CLOEXEC,
        36, 37, 38,  // F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW
        1032, 1033, 1034,  // F_GETPIPE_SZ, F_ADD_SEALS, F_GET_SEALS
    ]

    /// The `ioctl` requests allowed: asking what a descriptor is, never a
    /// terminal's input (TIOCSTI) or a device's.
    static let ioctlRequests: [UInt] = [
        UInt(TCGETS), UInt(TIOCGWINSZ), UInt(FIONREAD), UInt(FIONBIO), UInt(FIOCLEX), UInt(FIONCLEX),
    ]

    /// Adds the policy's rules to `filter`, for a process whose id (as it
    /// sees it) is `selfPID`; returns how many calls it allows.
    static func install(in filter: borrowing SeccompFilter, selfPID: pid_t) throws(Errno) -> Int {
        var allowedCount = 0
        for call in allowed where try filter.add(.allow, call) { allowedCount += 1 }
        for call in stopping { try filter.add(.trap, call) }

        let me = UInt64(UInt32(bitPattern: selfPID))
        // Signals: to itself (pid or thread group), and to nobody else.
        for call in ["kill", "tgkill", "tkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo"] {
            try filter.add(.allow, call, when: [.argument(0, equals: me)])
            try filter.add(.trap, call, when: [.argument(0, differsFrom: me)])
        }
        // Handlers for every signal but SIGSYS, whose handler reports a stop.
        try filter.add(.allow, "rt_sigaction", when: [.argument(0, differsFrom: UInt64(SIGSYS))])
        // Threads, and no other kind of new process. clone3 takes its flags
        // in memory, where a filter cannot read them: ENOSYS, and glibc
        // falls back to clone.
        let thread: UInt64 = 0x0001_0000  // CLONE_THREAD
        try filter.add(.allow, "clone", when: [.argument(0, masked: thread, equals: thread)])
        try filter.add(.trap, "clone", when: [.argument(0, masked: thread, equals: 0)])
        try filter.add(.fail(ENOSYS), "clone3")
        // Opening for reading only (Landlock decides what): a write, a
        // creation or a truncation fails with EPERM.
        let writing = UInt64(O_WRONLY | O_RDWR | O_CREAT | O_TRUNC)
        try filter.add(.allow, "openat", when: [.argument(2, masked: writing, equals: 0)])
        try filter.add(.allow, "open", when: [.argument(1, masked: writing, equals: 0)])
        // Sockets: none; a Unix one fails (nscd), any other stops the process.
        try filter.add(.fail(EPERM), "socket", when: [.argument(0, equals: UInt64(AF_UNIX))])
        try filter.add(.trap, "socket", when: [.argument(0, differsFrom: UInt64(AF_UNIX))])
        try filter.add(.fail(EPERM), "socketpair")
        // Limits may be read, not changed; its own only, as its robust list.
        try filter.add(.allow, "prlimit64", when: [.argument(0, equals: 0), .argument(2, equals: 0)])
        try filter.add(.allow, "get_robust_list", when: [.argument(0, equals: 0)])
        for call in ["fcntl", "fcntl64"] {
            for command in fcntlCommands {
                try filter.add(.allow, call, when: [.argument(1, equals: UInt64(UInt32(bitPattern: command)))])
            }
        }
        for option in prctlOptions {
            try filter.add(.allow, "prctl", when: [.argument(0, equals: UInt64(UInt32(bitPattern: option)))])
        }
        for request in ioctlRequests {
            try filter.add(.allow, "ioctl", when: [.argument(1, equals: UInt64(request))])
        }
        return allowedCount + 8
    }
}
