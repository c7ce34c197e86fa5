/*
 * system_shims.h -- the few Linux calls the host needs that Swift's Glibc
 * module does not import (they sit behind _GNU_SOURCE or are macros), and
 * the async-signal-safe part of the host's crash handler. Internal to
 * presenter-host: not part of the plugin ABI.
 */
#ifndef PRESENTER_HOST_SYSTEM_SHIMS_H
#define PRESENTER_HOST_SYSTEM_SHIMS_H

#include <signal.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>
#include <stdint.h>

/** pipe2(fds, O_CLOEXEC [| O_NONBLOCK]): both ends close-on-exec from birth. */
int ph_pipe_cloexec(int fds[2], int nonblocking);

/** socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0). */
int ph_socketpair_cloexec(int fds[2]);
/** A Unix stream socket bound to path and listening, close-on-exec; -1 and
 *  errno on failure (ENAMETOOLONG for a path sun_path cannot hold). */
int ph_listen_unix_cloexec(const char *path, int backlog);
/** A connection to the Unix stream socket at path, close-on-exec; -1 and errno. */
int ph_connect_unix_cloexec(const char *path, int nonblocking);
/** Sends one datagram of length bytes to the Unix datagram socket at path
 *  (a leading '@' names an abstract socket, as NOTIFY_SOCKET does); 0, or
 *  -1 and errno. */
int ph_send_datagram(const char *path, const void *bytes, size_t length);
/** sendmsg(fd) of `length` bytes with `count` descriptors attached
 *  (SCM_RIGHTS, at most 16), MSG_NOSIGNAL | MSG_DONTWAIT: the bytes sent,
 *  or -1 and errno. The descriptors go with the first byte. */
ssize_t ph_send_with_descriptors(int fd, const void *bytes, size_t length, const int *descriptors, int count);
/** recvmsg(fd) into `bytes`, taking up to `capacity` descriptors sent with
 *  them (close-on-exec) into `descriptors` and their number into *count
 *  (any beyond `capacity` are closed); the bytes read, 0 at the end, or -1
 *  and errno. */
ssize_t ph_receive_with_descriptors(int fd, void *bytes, size_t length, int *descriptors, int capacity, int *count);

/** accept4(fd, NULL, NULL, SOCK_CLOEXEC). */
int ph_accept_cloexec(int fd);

/** A sealed in-memory copy of the first `size` bytes of `source` (read from
 *  offset 0): memfd_create (close-on-exec), the bytes, then every seal, so
 *  that nobody can change it. The descriptor, or -1 and errno. */
int ph_sealed_copy(int source, off_t size);

/** mkostemp(template, O_CLOEXEC). */
int ph_mkstemp_cloexec(char *path_template);

/** open(path, O_PATH | O_CLOEXEC): a descriptor that names the file but
 *  cannot be read or written (EBADF). */
int ph_open_path_cloexec(const char *path);

/** A pseudo-terminal of our own (posix_openpt, grantpt, unlockpt), neither
 *  end our controlling terminal and both close-on-exec from birth: the
 *  leader (master), or -1 and errno; the follower (slave) in *follower,
 *  opened through the leader (TIOCGPTPEER) so that no other process's
 *  /dev/pts name can stand in for it (by that name on a kernel before 4.13). */
int ph_open_pseudo_terminal(int *follower);

/** One descriptor of a child of ph_spawn: `target` becomes a copy of
 *  `source`, or, when `path` is not NULL, the file `path` opened with
 *  `flags`. */
struct ph_spawn_descriptor {
    int target;
    int source;
    const char *path;
    int flags;
};

/** How ph_spawn starts a child. */
struct ph_spawn_plan {
    const struct ph_spawn_descriptor *descriptors;
    int descriptor_count;
    /** Every descriptor from this one up is closed (-1: none): after the others are set up. */
    int close_from;
    /** 1: the child leads a new session; 2: a new process group; 0: neither. */
    int leader;
    /** Signals set to their default action in the child (every signal the
     *  host catches is, too: its handlers are the host's). */
    const sigset_t *defaults;
    /** The child's signal mask. */
    const sigset_t *mask;
    /** The namespaces to start the child in (PH_NAMESPACE_* bits; 0: none).
     *  A user namespace comes with the others; each that the kernel refuses
     *  is left out, and the child starts without it. */
    int namespaces;
    /** The child's uid_map and gid_map ("inside outside count\n"), written
     *  when it gets a user namespace (made by the caller: the child may not
     *  format numbers). */
    const char *uid_map;
    const char *gid_map;
};

/** What ph_spawn started. */
struct ph_spawn_result {
    pid_t pid;
    /** The PH_NAMESPACE_* bits the child was started in. */
    int namespaces;
    /** The errno of the first namespace the kernel refused (0: none). */
    int namespace_error;
};

/** A new user namespace (the others need it), with the caller's uid and gid mapped to themselves. */
#define PH_NAMESPACE_USER 1
/** A new PID namespace: the child is its process 1, sees no other process, and takes every process it starts with it when it ends. */
#define PH_NAMESPACE_PID 2
/** A new network namespace: no interface but a loopback that is down. */
#define PH_NAMESPACE_NETWORK 4
/** A new mount namespace, and CAP_SYS_ADMIN of the child's user namespace
 *  kept across its exec (ambient), so that the program can make itself a
 *  root of its own there (ph_enter_own_root) before it drops every
 *  capability. */
#define PH_NAMESPACE_MOUNT 8

/** Starts `path` with `argv` and `envp` as `plan` says, in two steps, so
 *  that a caller that must not wait for the child's exec where it starts it
 *  (the presenter process, started ahead: its exec must not delay the
 *  command's start) waits for it elsewhere. ph_spawn_begin forks and returns
 *  at once: 0, the child in result->pid and the read end of its report pipe
 *  in *report (close-on-exec), or the errno of the fork. ph_spawn_end then
 *  waits on *report for the exec, closes it, and returns 0 with result
 *  complete, or the errno of what failed (a descriptor, execve), as
 *  posix_spawn reports it; the child, which then ends, is the caller's to
 *  reap, as is one whose ph_spawn_end is never called (after closing
 *  *report). Unlike posix_spawn (a vfork), no thread waits in the kernel for
 *  the child to exec: ph_spawn_end waits in read(2), where a stop (Ctrl-Z)
 *  takes it like every other thread, so a child that a stop signal caught
 *  before its exec cannot keep the host from stopping. */
int ph_spawn_begin(struct ph_spawn_result *result, int *report, const char *path, char *const argv[],
                   char *const envp[], const struct ph_spawn_plan *plan);
int ph_spawn_end(struct ph_spawn_result *result, int report);

/** Discards a pending SIGTSTP, SIGTTIN or SIGTTOU of the calling process
 *  (each set to SIG_IGN and back: POSIX discards a pending signal so), as
 *  ph_spawn's child does once it leads a group of its own: a Ctrl-Z that
 *  came while it blocked every signal would stop it where no `fg` reaches.
 *  System calls only. */
void ph_discard_pending_stops(void);

/** prctl(PR_SET_PDEATHSIG, signal): `signal` when the thread that started
 *  this process ends. */
int ph_set_parent_death_signal(int signal);

/** prctl(PR_SET_NAME, name): the name ps and top show (at most 15 bytes). */
int ph_set_process_name(const char *name);

/** gettid(): the calling thread's id (the process id on its main thread). */
pid_t ph_gettid(void);

/** tgkill(getpid(), thread, signal): `signal` to one thread of this
 * process. Async-signal-safe (SignalTrap's handler calls it). */
int ph_signal_thread(pid_t thread, int signal);

/** The word a condition variable sleeps on (MonotonicCondition): a
 *  sequence each wake bumps, and how many threads are about to sleep or
 *  sleep on it. Zeroed before first use; touched only through the
 *  ph_condition_ calls below. Unlike glibc's condition, a timed wait that
 *  ends at its deadline leaves the caller's mutex uncontended, so the
 *  unlock after it makes no system call (a frame timer's wake-up is one
 *  futex wait, not a wait and a wake). */
struct ph_condition_word {
    uint32_t sequence;
    uint32_t waiters;
};

/** Called holding the condition's mutex, before unlocking it to sleep:
 *  counts the caller as a waiter and returns the sequence to sleep on. */
uint32_t ph_condition_prepare(struct ph_condition_word *word);

/** Sleeps until the sequence moves past `seen` (a wake since
 *  ph_condition_prepare returns at once), or CLOCK_MONOTONIC reaches the
 *  absolute `deadline` (NULL: none). Returns 1 when the deadline passed,
 *  else 0 (woken, or spuriously). Keeps errno. */
int ph_condition_block(struct ph_condition_word *word, uint32_t seen, const struct timespec *deadline);

/** Bumps the sequence and wakes one sleeper (every one with `all`); a
 *  system call only when someone waits. */
void ph_condition_wake(struct ph_condition_word *word, int all);

/** environ: the process's environment, NULL after clearenv(3) (Glibc's
 *  Swift overlay imports environ as never NULL). */
char **ph_environment(void);

/** pidfd_open(pid, 0): a descriptor (close-on-exec) that polls readable
 *  once the process has ended; -1 where the kernel has no pidfd. */
int ph_pidfd_open(pid_t pid);

/** Sends `first`, then `second` (0: none), to every descendant of `root`,
 *  the deepest first, as found in one pass over /proc with system calls
 *  only: async-signal-safe, for a crash handler. Returns how many processes
 *  it signalled. */
int ph_signal_descendants(pid_t root, int first, int second);

/** The path of the loaded library that holds `address` (the name the
 *  dynamic loader gave it), or NULL (the main program's is NULL too). */
const char *ph_object_path_of(const void *address);

/** Calls `each` with the name of every library loaded in this process, in
 *  the dynamic loader's order (the main program left out): its path as the
 *  loader found it, which is relative for a library found through a
 *  relative path, or no file's at all (the vDSO's). */
void ph_each_loaded_object(void (*each)(const char *path, void *context), void *context);

/** The address `name` has in the objects loaded so far (dlsym with
 *  RTLD_DEFAULT), or NULL. */
void *ph_default_symbol(const char *name);

/* ---- confinement: what a process that runs plugin code gives up --------
 * (confinement.c; the policy is the host's: PluginConfinement.swift) */

#include <stdint.h>

/** Landlock's ABI version (1 for Linux 5.13 ... 6 for 6.12, 7 for 6.15), or
 *  -1 and errno (ENOSYS: not built in; EOPNOTSUPP: turned off at boot). */
int ph_landlock_abi(void);
/** A Landlock ruleset that handles these file-system and TCP accesses and
 *  these scopes (each 0 where the ABI has none); a descriptor, or -1 and
 *  errno. */
int ph_landlock_ruleset(uint64_t handled_fs, uint64_t handled_net, uint64_t scoped);
/** Allows `access` beneath the file or folder `fd` names; 0, or -1 and errno. */
int ph_landlock_allow(int ruleset, int fd, uint64_t access);
/** Restricts the calling thread (and the threads it starts) to the ruleset,
 *  for ever; 0, or -1 and errno. Needs ph_no_new_privileges first. */
int ph_landlock_restrict(int ruleset);

/** One entry of the root ph_enter_own_root makes. */
struct ph_root_entry {
    /** Absolute, with no symbolic link on the way and no trailing slash. */
    const char *path;
    /** NULL: the folder, file or device at `path` is bound there, read-only
     *  (one that does not exist is left out); otherwise a symbolic link
     *  with this text is made at `path`. No entry may lie beneath a bound
     *  folder or a link of another. */
    const char *link;
};

/** The steps of ph_enter_own_root, for its caller to name the one that failed. */
#define PH_ROOT_UNSHARE 1   /**< unshare(CLONE_NEWNS) */
#define PH_ROOT_PRIVATE 2   /**< mount(MS_PRIVATE) of the old root */
#define PH_ROOT_OPEN 3      /**< open(O_PATH) of an entry */
#define PH_ROOT_TMPFS 4     /**< mount of the tmpfs */
#define PH_ROOT_MAKE 5      /**< mkdirat or openat of a mount point */
#define PH_ROOT_LINK 6      /**< symlinkat */
#define PH_ROOT_BIND 7      /**< mount(MS_BIND) */
#define PH_ROOT_READ_ONLY 8 /**< mount_setattr (or a remount) read-only */
#define PH_ROOT_PIVOT 9     /**< pivot_root */
#define PH_ROOT_DETACH 10   /**< umount2(MNT_DETACH) of the old root */
#define PH_ROOT_SEAL 11     /**< the read-only remount of the tmpfs */

/** Gives the calling process a root of its own: a new mount namespace
 *  (which needs CAP_SYS_ADMIN in its user namespace), a tmpfs mounted on
 *  `scratch` (an existing folder) holding the `count` entries, each bound
 *  read-only or linked at its own path, then pivot_root into it, the old
 *  root detached, and the tmpfs made read-only. Paths not among the
 *  entries then do not exist for it. Call it on the process's only
 *  thread. 0, or the errno, with the step that failed in *step. */
int ph_enter_own_root(const struct ph_root_entry *entries, int count, const char *scratch, int *step);

/** The AUDIT_ARCH_* value of this process's own system calls (what a
 *  seccomp filter's SIGSYS reports as si_arch for them); 0 where unknown. */
uint32_t ph_native_audit_arch(void);

/** prctl(PR_SET_NO_NEW_PRIVS): no exec can grant this process a privilege
 *  again (set-user-id, file capabilities); needed before seccomp or Landlock
 *  without CAP_SYS_ADMIN. 0, or -1 and errno. */
int ph_no_new_privileges(void);
/** Drops every capability: the ambient set, the bounding set (where this
 *  process may), then the effective, permitted and inheritable sets. 0 when
 *  none is left, else -1 and errno. */
int ph_drop_capabilities(void);

/** What ph_report_violations writes on its descriptor for each stop: one
 *  record, in one write(2). */
struct ph_violation {
    uint32_t magic;   /**< PH_VIOLATION_MAGIC */
    uint32_t kind;    /**< PH_VIOLATION_SYSTEM_CALL or PH_VIOLATION_SIGNAL */
    int32_t number;   /**< the system call's number, or the signal's */
    uint32_t arch;    /**< the system call's AUDIT_ARCH_* (i386 for an int 0x80) */
    uint64_t args[6]; /**< the system call's arguments */
};
#define PH_VIOLATION_MAGIC 0x70687631u /* "phv1" */
/** The process made a system call its seccomp filter stops (SECCOMP_RET_TRAP). */
#define PH_VIOLATION_SYSTEM_CALL 1
/** The process, process 1 of its PID namespace, sent itself a signal that
 *  would have ended it anywhere else; it exited with 128 + the signal. */
#define PH_VIOLATION_SIGNAL 2

/** Installs the handlers that end this process as the sandbox says (call it
 *  before the filter is loaded, which then refuses any handler for SIGSYS):
 *  - SIGSYS from the seccomp filter: the call is written to `fd` as a
 *    ph_violation, then the process ends with SIGSYS (the call is made
 *    again, as the architecture it was made as, with SIGSYS blocked, which
 *    the kernel turns into the default action);
 *  - when `namespace_init` is set (process 1 of a PID namespace, which the
 *    kernel never lets a signal it sends itself end): each signal that
 *    would end another process (abort()'s SIGABRT, raise(SIGTERM)...) is
 *    written to `fd`, then the process exits with 128 + the signal, which
 *    the host reads as that signal.
 *  0, or -1 and errno. */
int ph_report_violations(int fd, int namespace_init);

#endif
