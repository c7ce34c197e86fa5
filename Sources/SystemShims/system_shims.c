#define _GNU_SOURCE
#include "system_shims.h"

#include <dirent.h>
#include <sched.h>
#include <dlfcn.h>
#include <link.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/sendfile.h>
#include <sys/wait.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/syscall.h>
#include <linux/capability.h>
#include <linux/futex.h>
#include <limits.h>
#include <unistd.h>

int ph_pipe_cloexec(int fds[2], int nonblocking) {
    return pipe2(fds, O_CLOEXEC | (nonblocking ? O_NONBLOCK : 0));
}

int ph_socketpair_cloexec(int fds[2]) {
    return socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds);
}

static int unix_address(const char *path, struct sockaddr_un *address) {
    memset(address, 0, sizeof *address);
    address->sun_family = AF_UNIX;
    if (strlen(path) >= sizeof address->sun_path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(address->sun_path, path);
    return 0;
}

int ph_listen_unix_cloexec(const char *path, int backlog) {
    struct sockaddr_un address;
    if (unix_address(path, &address) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0 || listen(fd, backlog) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int ph_connect_unix_cloexec(const char *path, int nonblocking) {
    struct sockaddr_un address;
    if (unix_address(path, &address) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblocking ? SOCK_NONBLOCK : 0), 0);
    if (fd < 0) return -1;
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
        int saved = errno;
        close(fd);
        errno = saved;
        return -1;
    }
    return fd;
}

int ph_send_datagram(const char *path, const void *bytes, size_t length) {
    struct sockaddr_un address;
    memset(&address, 0, sizeof address);
    address.sun_family = AF_UNIX;
    size_t size = strlen(path);
    if (size == 0 || size >= sizeof address.sun_path) {
        errno = EINVAL;
        return -1;
    }
    memcpy(address.sun_path, path, size);
    if (path[0] == '@') address.sun_path[0] = 0;
    socklen_t address_size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + size + (path[0] == '@' ? 0 : 1));
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    ssize_t sent = sendto(fd, bytes, length, MSG_NOSIGNAL, (struct sockaddr *)&address, address_size);
    int saved = errno;
    close(fd);
    errno = saved;
    return sent == (ssize_t)length ? 0 : -1;
}

#define PH_MAX_PASSED 16

ssize_t ph_send_with_descriptors(int fd, const void *bytes, size_t length, const int *descriptors, int count) {
    if (count < 0 || count > PH_MAX_PASSED) {
        errno = EINVAL;
        return -1;
    }
    struct iovec data = {(void *)bytes, length};
    union {
        char buffer[CMSG_SPACE(sizeof(int) * PH_MAX_PASSED)];
        struct cmsghdr align;
    } control;
    memset(&control, 0, sizeof control);
    struct msghdr message = {.msg_iov = &data, .msg_iovlen = 1};
    if (count > 0) {
        message.msg_control = control.buffer;
        message.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)count);
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)count);
        memcpy(CMSG_DATA(header), descriptors, sizeof(int) * (size_t)count);
    }
    return sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
}

ssize_t ph_receive_with_descriptors(int fd, void *bytes, size_t length, int *descriptors, int capacity, int *count) {
    struct iovec data = {bytes, length};
    union {
        char buffer[CMSG_SPACE(sizeof(int) * PH_MAX_PASSED)];
        struct cmsghdr align;
    } control;
    struct msghdr message = {.msg_iov = &data, .msg_iovlen = 1, .msg_control = control.buffer,
                             .msg_controllen = sizeof control.buffer};
    *count = 0;
    ssize_t received = recvmsg(fd, &message, MSG_CMSG_CLOEXEC);
    if (received < 0) return -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header != NULL; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
        size_t passed = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < passed; i++) {
            int descriptor;
            memcpy(&descriptor, CMSG_DATA(header) + i * sizeof(int), sizeof descriptor);
            if (*count < capacity) descriptors[(*count)++] = descriptor;
            else close(descriptor);
        }
    }
    return received;
}

int ph_accept_cloexec(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC);
}

int ph_sealed_copy(int source, off_t size) {
    int copy = memfd_create("presenter-plugin", MFD_CLOEXEC | MFD_ALLOW_SEALING);
    if (copy < 0) return -1;
    off_t offset = 0;
    while (offset < size) {
        ssize_t sent = sendfile(copy, source, &offset, (size_t)(size - offset));
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) {
            int saved = sent == 0 ? EIO : errno;
            close(copy);
            errno = saved;
            return -1;
        }
    }
    if (fcntl(copy, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) != 0) {
        int saved = errno;
        close(copy);
        errno = saved;
        return -1;
    }
    return copy;
}

int ph_mkstemp_cloexec(char *path_template) {
    return mkostemp(path_template, O_CLOEXEC);
}

/* closefrom(from), except `keep` (above `from`). */
static void closefrom_around(int from, int keep) {
    if (syscall(SYS_close_range, (unsigned)from, (unsigned)keep - 1, 0) != 0) {
        for (int fd = from; fd < keep; fd++) close(fd);
    }
    closefrom(keep + 1);
}

int ph_open_path_cloexec(const char *path) {
    return open(path, O_PATH | O_CLOEXEC);
}

int ph_open_pseudo_terminal(int *follower) {
    int leader = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (leader < 0) return -1;
    if (grantpt(leader) == 0 && unlockpt(leader) == 0) {
        *follower = ioctl(leader, TIOCGPTPEER, O_RDWR | O_NOCTTY | O_CLOEXEC);
        if (*follower < 0 && (errno == EINVAL || errno == ENOTTY)) {
            char name[64];
            if (ptsname_r(leader, name, sizeof name) == 0) *follower = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
        }
        if (*follower >= 0) return leader;
    }
    int saved = errno;
    close(leader);
    errno = saved;
    return -1;
}

int ph_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

int ph_set_process_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

pid_t ph_gettid(void) { return (pid_t)syscall(SYS_gettid); }

int ph_signal_thread(pid_t thread, int signal) { return (int)syscall(SYS_tgkill, getpid(), thread, signal); }

int ph_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
}

/* ---- ph_spawn: a fork, not a vfork ------------------------------------- */

/* Why not posix_spawn: glibc's is a vfork (clone with CLONE_VFORK), whose
 * parent thread waits in the kernel, uninterruptibly, until the child execs.
 * A terminal's Ctrl-Z sends SIGTSTP to the whole foreground process group,
 * the child too: pending while the child blocks signals, it stops the child
 * the moment glibc unblocks them, just before execve. The child then never
 * execs, its parent thread never returns, and the host can never stop (a
 * group stop waits for every thread): the shell gets no prompt back, and no
 * key helps. A fork's parent waits for the exec in read(2) instead, and
 * stops with the rest of the host; `fg` continues both. */

void ph_discard_pending_stops(void) {
    static const int stops[] = {SIGTSTP, SIGTTIN, SIGTTOU};
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
        struct sigaction ignore, previous;
        memset(&ignore, 0, sizeof ignore);
        ignore.sa_handler = SIG_IGN;
        /* POSIX: setting a pending signal's action to SIG_IGN discards it. */
        if (sigaction(stops[i], &ignore, &previous) == 0) sigaction(stops[i], &previous, NULL);
    }
}

/* The child's side, between fork and exec: system calls only (the host has
 * other threads, whose locks a fork copies held). Returns only on failure,
 * with the errno. */
static int ph_spawn_child(const char *path, char *const argv[], char *const envp[], const struct ph_spawn_plan *plan,
                          int report) {
    for (int signal = 1; signal < NSIG; signal++) {
        struct sigaction action;
        if (sigaction(signal, NULL, &action) != 0) continue;
        int caught = (action.sa_flags & SA_SIGINFO) || (action.sa_handler != SIG_DFL && action.sa_handler != SIG_IGN);
        if (!caught && !sigismember(plan->defaults, signal)) continue;
        memset(&action, 0, sizeof action);
        action.sa_handler = SIG_DFL;
        sigaction(signal, &action, NULL);
    }
    if (plan->leader == 1 && setsid() < 0) return errno;
    if (plan->leader == 2 && setpgid(0, 0) != 0) return errno;
    /* A Ctrl-Z that came while every signal was blocked (since the fork)
     * is pending: once the mask is restored it would stop the child in a
     * process group of its own, which `fg` never continues, and the host
     * would wait for the exec for ever (docs/SOAK.md). */
    if (plan->leader != 0) ph_discard_pending_stops();
    for (int index = 0; index < plan->descriptor_count; index++) {
        const struct ph_spawn_descriptor *descriptor = &plan->descriptors[index];
        int source = descriptor->source;
        if (descriptor->path != NULL) {
            source = open(descriptor->path, descriptor->flags);
            if (source < 0) return errno;
        }
        if (source == descriptor->target) {
            if (fcntl(source, F_SETFD, 0) != 0) return errno;  /* dup2 onto itself would keep FD_CLOEXEC */
        } else {
            if (dup2(source, descriptor->target) < 0) return errno;
            if (descriptor->path != NULL) close(source);
        }
    }
    if (plan->close_from >= 0) {
        /* The report pipe stays open until the exec (it is close-on-exec). */
        if (report > plan->close_from) closefrom_around(plan->close_from, report);
        else closefrom(plan->close_from);
    }
    if (sigprocmask(SIG_SETMASK, plan->mask, NULL) != 0) return errno;
    execve(path, argv, envp);
    return errno;
}

/* Writes all of text to the file at path (a /proc/self file of the child's
 * own); 0, or the errno. */
static int write_proc_file(const char *path, const char *text) {
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    size_t length = strlen(text);
    ssize_t written = write(fd, text, length);
    int error = written == (ssize_t)length ? 0 : (written < 0 ? errno : EIO);
    close(fd);
    return error;
}

/* What the child tells its parent through the report pipe, in order: where
 * it started (when namespaces were asked for), then, only when it did not
 * exec, why. */
struct spawn_report {
    int kind; /* 1: namespaces entered; 2: failed with `value` (an errno) */
    int value;
    int error; /* kind 1: the errno of the first namespace refused */
};

static void send_report(int fd, struct spawn_report report) {
    while (write(fd, &report, sizeof report) < 0 && errno == EINTR) {
    }
}

/* Keeps CAP_SYS_ADMIN, of the child's own user namespace only, across its
 * exec (an ambient capability: execve clears the others of a user that is
 * not root there), so that the program can build its own root in its mount
 * namespace before it drops every capability (PluginConfinement). 0, or -1
 * and errno. */
static int keep_mount_capability(void) {
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    if (syscall(SYS_capget, &header, data) != 0) return -1;
    data[CAP_TO_INDEX(CAP_SYS_ADMIN)].inheritable |= CAP_TO_MASK(CAP_SYS_ADMIN);
    if (syscall(SYS_capset, &header, data) != 0) return -1;
    return prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, CAP_SYS_ADMIN, 0UL, 0UL);
}

/* The child's side of the namespaces it was cloned into: its uid and gid
 * maps, then a network namespace and a mount namespace of its own. Returns
 * the bits entered. */
static int enter_namespaces(const struct ph_spawn_plan *plan, int entered, int *error) {
    if (entered & PH_NAMESPACE_USER) {
        /* setgroups must be denied before an unprivileged gid_map. A map
         * that cannot be written leaves the ids unmapped inside: the child
         * still runs, as nobody there. */
        int failed = write_proc_file("/proc/self/setgroups", "deny");
        if (failed == 0 || failed == ENOENT) failed = write_proc_file("/proc/self/uid_map", plan->uid_map);
        if (failed == 0) failed = write_proc_file("/proc/self/gid_map", plan->gid_map);
        if (failed != 0 && *error == 0) *error = failed;
    }
    if ((plan->namespaces & PH_NAMESPACE_NETWORK) && (entered & PH_NAMESPACE_USER)) {
        if (unshare(CLONE_NEWNET) == 0) entered |= PH_NAMESPACE_NETWORK;
        else if (*error == 0) *error = errno;
    }
    if ((plan->namespaces & PH_NAMESPACE_MOUNT) && (entered & PH_NAMESPACE_USER)) {
        if (unshare(CLONE_NEWNS) == 0 && keep_mount_capability() == 0) entered |= PH_NAMESPACE_MOUNT;
        else if (*error == 0) *error = errno;
    }
    return entered;
}

/* A fork, or, when the plan asks for namespaces, a clone into a new user
 * namespace (and PID namespace): fork's semantics (no CLONE_VM, the child on
 * a copy of this stack). A clone the kernel refuses (unprivileged user
 * namespaces off, AppArmor's restriction, a limit) falls back to a fork;
 * `entered` says what the child got and `error` why not. */
static pid_t fork_into_namespaces(const struct ph_spawn_plan *plan, int *entered, int *error) {
    *entered = 0;
    *error = 0;
    if (plan->namespaces & (PH_NAMESPACE_USER | PH_NAMESPACE_PID | PH_NAMESPACE_NETWORK | PH_NAMESPACE_MOUNT)) {
        unsigned long flags = CLONE_NEWUSER | ((plan->namespaces & PH_NAMESPACE_PID) ? CLONE_NEWPID : 0);
        pid_t child = (pid_t)syscall(SYS_clone, flags | SIGCHLD, NULL, NULL, NULL, NULL);
        if (child >= 0) {
            *entered = PH_NAMESPACE_USER | ((plan->namespaces & PH_NAMESPACE_PID) ? PH_NAMESPACE_PID : 0);
            return child;
        }
        *error = errno;
    }
    return _Fork();
}

int ph_spawn_begin(struct ph_spawn_result *result, int *report_end, const char *path, char *const argv[],
                   char *const envp[], const struct ph_spawn_plan *plan) {
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return errno;
    /* Above every target, so that no dup2 lands on it. */
    int highest = 2;
    for (int index = 0; index < plan->descriptor_count; index++) {
        if (plan->descriptors[index].target > highest) highest = plan->descriptors[index].target;
    }
    if (report[1] <= highest) {
        int moved = fcntl(report[1], F_DUPFD_CLOEXEC, highest + 1);
        int saved = errno;
        close(report[1]);
        if (moved < 0) {
            close(report[0]);
            return saved;
        }
        report[1] = moved;
    }
    /* No handler of the host's may run in the child: every signal is
     * blocked from the fork until the child's own mask is set. */
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    int entered = 0, namespace_error = 0;
    pid_t child = fork_into_namespaces(plan, &entered, &namespace_error);
    if (child == 0) {
        close(report[0]);
        if (plan->namespaces != 0) {
            entered = enter_namespaces(plan, entered, &namespace_error);
            send_report(report[1], (struct spawn_report){1, entered, namespace_error});
        }
        int error = ph_spawn_child(path, argv, envp, plan, report[1]);
        send_report(report[1], (struct spawn_report){2, error, 0});
        _exit(127);
    }
    int fork_error = errno;
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    close(report[1]);
    if (child < 0) {
        close(report[0]);
        return fork_error;
    }
    result->pid = child;
    result->namespaces = 0;
    result->namespace_error = namespace_error;
    *report_end = report[0];
    return 0;
}

int ph_spawn_end(struct ph_spawn_result *result, int report) {
    int error = 0;
    for (;;) {
        struct spawn_report message;
        ssize_t count;
        do {
            count = read(report, &message, sizeof message);
        } while (count < 0 && errno == EINTR);
        if (count < 0) { /* not an end of file: nothing says the child exec'd */
            error = errno;
            break;
        }
        if (count != (ssize_t)sizeof message) break; /* end of file: the child exec'd */
        if (message.kind == 1) {
            result->namespaces = message.value;
            if (message.error != 0) result->namespace_error = message.error;
        } else {
            error = message.value;
        }
    }
    close(report);
    return error;
}

/* ---- the crash path: no malloc, no stdio, only system calls ------------- */

/* The processes seen in one pass over /proc, in static storage. */
#define PH_MAX_PROCESSES 65536
static pid_t ph_pids[PH_MAX_PROCESSES];
static pid_t ph_parents[PH_MAX_PROCESSES];
static unsigned char ph_depths[PH_MAX_PROCESSES];

struct ph_dirent64 {
    unsigned long long d_ino;
    long long d_off;
    unsigned short d_reclen;
    unsigned char d_type;
    char d_name[];
};

/* Parses a decimal number from s; returns -1 when s is not one. */
static long ph_number(const char *s) {
    long value = 0;
    if (*s == '\0') return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return -1;
        value = value * 10 + (*s - '0');
        if (value > 0x7fffffff) return -1;
    }
    return value;
}

/* The parent of pid from /proc/pid/stat (after the last ')': state, ppid). */
static pid_t ph_parent_of(pid_t pid) {
    char path[32] = "/proc/";
    char digits[16];
    int n = 0, i = 6;
    do { digits[n++] = (char)('0' + pid % 10); pid /= 10; } while (pid > 0);
    while (n > 0) path[i++] = digits[--n];
    const char *tail = "/stat";
    while (*tail) path[i++] = *tail++;
    path[i] = '\0';
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buffer[512];
    ssize_t count = read(fd, buffer, sizeof buffer - 1);
    close(fd);
    if (count <= 0) return -1;
    buffer[count] = '\0';
    char *close_paren = NULL;
    for (char *p = buffer; *p; p++) if (*p == ')') close_paren = p;
    if (close_paren == NULL || close_paren[1] != ' ' || close_paren[2] == '\0' || close_paren[3] != ' ') return -1;
    long parent = 0;
    for (char *p = close_paren + 4; *p >= '0' && *p <= '9'; p++) parent = parent * 10 + (*p - '0');
    return (pid_t)parent;
}

int ph_signal_descendants(pid_t root, int first, int second) {
    int dir = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0) return 0;
    size_t count = 0;
    static unsigned long long storage[1024]; /* 8 KiB, aligned for the records */
    char *buffer = (char *)storage;
    for (;;) {
        long got = syscall(SYS_getdents64, dir, buffer, sizeof storage);
        if (got <= 0) break;
        for (long offset = 0; offset < got;) {
            struct ph_dirent64 *entry = (struct ph_dirent64 *)(buffer + offset);
            offset += entry->d_reclen;
            long pid = ph_number(entry->d_name);
            if (pid <= 0 || count >= PH_MAX_PROCESSES) continue;
            pid_t parent = ph_parent_of((pid_t)pid);
            if (parent < 0) continue;
            ph_pids[count] = (pid_t)pid;
            ph_parents[count] = parent;
            ph_depths[count] = 0;
            count++;
        }
    }
    close(dir);
    /* Level 1: the children of root; each later level: the children of the last one. */
    int deepest = 0;
    for (int level = 1; level < 255; level++) {
        int found = 0;
        for (size_t j = 0; j < (level == 1 ? 1 : count); j++) {
            if (level > 1 && ph_depths[j] != level - 1) continue;
            pid_t parent = level == 1 ? root : ph_pids[j];
            for (size_t i = 0; i < count; i++) {
                if (ph_depths[i] == 0 && ph_parents[i] == parent && ph_pids[i] != root) {
                    ph_depths[i] = (unsigned char)level;
                    found = 1;
                }
            }
        }
        if (!found) break;
        deepest = level;
    }
    int signalled = 0;
    for (int level = deepest; level >= 1; level--) {
        for (size_t i = 0; i < count; i++) {
            if (ph_depths[i] == level && kill(ph_pids[i], first) == 0) signalled++;
        }
    }
    if (second != 0) {
        for (int level = deepest; level >= 1; level--) {
            for (size_t i = 0; i < count; i++) {
                if (ph_depths[i] == level) (void)kill(ph_pids[i], second);
            }
        }
    }
    return signalled;
}

/* dl_iterate_phdr, not dladdr: dladdr also looks for the nearest symbol,
 * a walk over every symbol of the object (libswiftCore.so has tens of
 * thousands), where the segments alone say which object holds an address. */
struct ph_address_search {
    uintptr_t address;
    const char *path;
};

static int holds_address(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct ph_address_search *search = data;
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD) continue;
        uintptr_t start = (uintptr_t)info->dlpi_addr + header->p_vaddr;
        if (search->address >= start && search->address - start < header->p_memsz) {
            search->path = info->dlpi_name;
            return 1;
        }
    }
    return 0;
}

const char *ph_object_path_of(const void *address) {
    if (address == NULL) return NULL;
    struct ph_address_search search = {(uintptr_t)address, NULL};
    dl_iterate_phdr(holds_address, &search);
    return search.path != NULL && search.path[0] != '\0' ? search.path : NULL;
}

struct ph_object_visit {
    void (*each)(const char *path, void *context);
    void *context;
};

static int visit_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct ph_object_visit *visit = data;
    /* The main program's name is empty. A library found through a relative
     * path has a relative name, and the vDSO a name that is no file's. */
    if (info->dlpi_name != NULL && info->dlpi_name[0] != '\0') visit->each(info->dlpi_name, visit->context);
    return 0;
}

void ph_each_loaded_object(void (*each)(const char *path, void *context), void *context) {
    struct ph_object_visit visit = {each, context};
    dl_iterate_phdr(visit_object, &visit);
}

void *ph_default_symbol(const char *name) {
    return dlsym(RTLD_DEFAULT, name);
}

uint32_t ph_condition_prepare(struct ph_condition_word *word) {
    __atomic_fetch_add(&word->waiters, 1, __ATOMIC_SEQ_CST);
    return __atomic_load_n(&word->sequence, __ATOMIC_SEQ_CST);
}

int ph_condition_block(struct ph_condition_word *word, uint32_t seen, const struct timespec *deadline) {
    int saved = errno;
    /* FUTEX_WAIT_BITSET takes an absolute time, on CLOCK_MONOTONIC unless
       FUTEX_CLOCK_REALTIME is set: the clock MonotonicTime reads. */
    long result = syscall(SYS_futex, &word->sequence, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, seen, deadline, NULL,
                          FUTEX_BITSET_MATCH_ANY);
    int passed = result == -1 && errno == ETIMEDOUT;
    __atomic_fetch_sub(&word->waiters, 1, __ATOMIC_SEQ_CST);
    errno = saved;
    return passed;
}

void ph_condition_wake(struct ph_condition_word *word, int all) {
    __atomic_fetch_add(&word->sequence, 1, __ATOMIC_SEQ_CST);
    /* A waiter counts itself before it reads the sequence, and a waker bumps
       the sequence before it reads the count (both sequentially consistent):
       either the waker sees the waiter, or the waiter sees the new sequence
       and does not sleep. */
    if (__atomic_load_n(&word->waiters, __ATOMIC_SEQ_CST) > 0) {
        int saved = errno;
        syscall(SYS_futex, &word->sequence, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, all ? INT_MAX : 1, NULL, NULL, 0);
        errno = saved;
    }
}

char **ph_environment(void) { return environ; }
