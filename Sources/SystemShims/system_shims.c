#define _GNU_SOURCE
#include "system_shims.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/syscall.h>
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

int ph_connect_unix_cloexec(const char *path) {
    struct sockaddr_un address;
    if (unix_address(path, &address) != 0) return -1;
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
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

int ph_accept_cloexec(int fd) {
    return accept4(fd, NULL, NULL, SOCK_CLOEXEC);
}

int ph_mkstemp_cloexec(char *path_template) {
    return mkostemp(path_template, O_CLOEXEC);
}

int ph_spawn_add_close_from(posix_spawn_file_actions_t *actions, int from) {
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int ph_open_path_cloexec(const char *path) {
    return open(path, O_PATH | O_CLOEXEC);
}

short ph_spawn_setsid_flag(void) {
    return POSIX_SPAWN_SETSID;
}

int ph_set_parent_death_signal(int signal) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)signal, 0UL, 0UL, 0UL);
}

int ph_set_process_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

pid_t ph_gettid(void) { return (pid_t)syscall(SYS_gettid); }

int ph_pidfd_open(pid_t pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    return -1;
#endif
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

const char *ph_object_path_of(const void *address) {
    Dl_info info;
    if (address == NULL || dladdr(address, &info) == 0) return NULL;
    return info.dli_fname;
}

void *ph_default_symbol(const char *name) {
    return dlsym(RTLD_DEFAULT, name);
}
