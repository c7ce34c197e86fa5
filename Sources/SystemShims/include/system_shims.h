/*
 * system_shims.h -- the few Linux calls the host needs that Swift's Glibc
 * module does not import (they sit behind _GNU_SOURCE or are macros), and
 * the async-signal-safe part of the host's crash handler. Internal to
 * presenter-host: not part of the plugin ABI.
 */
#ifndef PRESENTER_HOST_SYSTEM_SHIMS_H
#define PRESENTER_HOST_SYSTEM_SHIMS_H

#include <signal.h>
#include <sys/types.h>

/** pipe2(fds, O_CLOEXEC [| O_NONBLOCK]): both ends close-on-exec from birth. */
int ph_pipe_cloexec(int fds[2], int nonblocking);

/** socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0). */
int ph_socketpair_cloexec(int fds[2]);
/** A Unix stream socket bound to path and listening, close-on-exec; -1 and
 *  errno on failure (ENAMETOOLONG for a path sun_path cannot hold). */
int ph_listen_unix_cloexec(const char *path, int backlog);
/** A connection to the Unix stream socket at path, close-on-exec; -1 and errno. */
int ph_connect_unix_cloexec(const char *path);
/** Sends one datagram of length bytes to the Unix datagram socket at path
 *  (a leading '@' names an abstract socket, as NOTIFY_SOCKET does); 0, or
 *  -1 and errno. */
int ph_send_datagram(const char *path, const void *bytes, size_t length);
/** accept4(fd, NULL, NULL, SOCK_CLOEXEC). */
int ph_accept_cloexec(int fd);

/** mkostemp(template, O_CLOEXEC). */
int ph_mkstemp_cloexec(char *path_template);

/** open(path, O_PATH | O_CLOEXEC): a descriptor that names the file but
 *  cannot be read or written (EBADF). */
int ph_open_path_cloexec(const char *path);

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
};

/** Starts `path` with `argv` and `envp` as `plan` says; 0 and the pid in
 *  *pid, or the errno of what failed (fork, a descriptor, execve), as
 *  posix_spawn reports it. Unlike posix_spawn (a vfork), the calling thread
 *  does not wait in the kernel for the child to exec: it waits in read(2),
 *  where a stop (Ctrl-Z) takes it like every other thread, so a child that a
 *  stop signal caught before its exec cannot keep the host from stopping. */
int ph_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const struct ph_spawn_plan *plan);

/** prctl(PR_SET_PDEATHSIG, signal): `signal` when the thread that started
 *  this process ends. */
int ph_set_parent_death_signal(int signal);

/** prctl(PR_SET_NAME, name): the name ps and top show (at most 15 bytes). */
int ph_set_process_name(const char *name);

/** gettid(): the calling thread's id (the process id on its main thread). */
pid_t ph_gettid(void);

/** pidfd_open(pid, 0): a descriptor (close-on-exec) that polls readable
 *  once the process has ended; -1 where the kernel has no pidfd. */
int ph_pidfd_open(pid_t pid);

/** Sends `first`, then `second` (0: none), to every descendant of `root`,
 *  the deepest first, as found in one pass over /proc with system calls
 *  only: async-signal-safe, for a crash handler. Returns how many processes
 *  it signalled. */
int ph_signal_descendants(pid_t root, int first, int second);

/** The path of the loaded object (library or executable) that holds
 *  `address` (dladdr's dli_fname), or NULL. */
const char *ph_object_path_of(const void *address);

/** The address `name` has in the objects loaded so far (dlsym with
 *  RTLD_DEFAULT), or NULL. */
void *ph_default_symbol(const char *name);

#endif
