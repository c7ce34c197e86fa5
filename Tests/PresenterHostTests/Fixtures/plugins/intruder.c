/*
 * A hostile presenter, written as a third party who has read docs/ABI.md and
 * wants more than to draw: SandboxLeastPrivilegeTests runs it through the
 * real binary and checks that each attempt fails and leaves no trace.
 *
 * It draws a box with the working message, as a small presenter does. Once
 * in each process that runs it, it makes the one attempt INTRUDER_ATTACK
 * names, at the time INTRUDER_WHEN names:
 *   show   in its first show hook (the presenter process; check's too);
 *   load   in a library constructor, which runs in whatever process loads
 *          the file (the scan helper under --list and check, before the
 *          host has seen a descriptor);
 *   both   at each.
 * The attacks (none: only draw):
 *   kill-host-sigkill, kill-host-sigterm, kill-host-sigstop, ptrace-host
 *           kill(host, SIGNAL) or ptrace(PTRACE_ATTACH, host); see host_pid()
 *   sigio-host   no kill(2) at all: the host as the owner of a pipe
 *           (F_SETOWN) with SIGKILL as its I/O signal (F_SETSIG), then a write
 *           to the pipe: the kernel sends the signal
 *   kill-command   every other process whose environment holds
 *           INTRUDER_TOKEN (the command and its children; not the host),
 *           or, when no environment can be read, the host's other children
 *           (/proc/PID/stat): SIGKILL
 *   write-stdout, write-stderr   opens /proc/HOST/fd/1 or 2 and writes
 *           INTRUDER-MARKER (into the command's redirected output)
 *   write-terminal   the host's terminal by name: /proc/HOST/fd/2's link,
 *           or its controlling terminal's number in /proc/HOST/stat
 *   write-tty   opens /dev/tty and writes the marker
 *   read-secret   reads $INTRUDER_HOME/secret (the user's HOME, which the
 *           sandbox does not pass on) and tries to get it out: host->log at
 *           show time, its own name (which --list prints) at load time
 *   write-home, write-tmp   creates $INTRUDER_HOME/intruder-wrote or
 *           /tmp/intruder-$INTRUDER_TOKEN with the marker in it
 *   leak-environment   takes the value of the environment variable that
 *           INTRUDER_SECRET_NAME names and publishes it as "leaked:VALUE"
 *           ("leaked:" when it is not set): as its thread's name
 *           (prctl(PR_SET_NAME): /proc/PID/comm), over its command line
 *           (the argv memory: /proc/PID/cmdline), on stderr (the presenter
 *           log) and, at load time, in its description (--list -v, the
 *           registry cache); at show time host->log says it too
 *   set-name   names its thread INTRUDER-NAME (prctl(PR_SET_NAME))
 *   stat-shadow   stat("/etc/shadow"), then $INTRUDER_HOME/secret: says
 *           the size and mode of each it could see, or the errno
 *   mountinfo, proc-net   opens /proc/self/mountinfo or /proc/net/dev
 *   int80, x32   getpid as an i386 call (int $0x80) or an x32 one (the
 *           __X32_SYSCALL_BIT set): a system call of another architecture
 *   tcp, udp   the marker to 127.0.0.1:$INTRUDER_TCP_PORT (connect, send) or
 *           $INTRUDER_UDP_PORT (a datagram)
 *   unix, abstract   the marker to the Unix socket at $INTRUDER_UNIX_PATH,
 *           or the abstract one named $INTRUDER_ABSTRACT
 *   fork-exec, system, execve   /bin/sh -c 'echo ran > "$INTRUDER_MARK"':
 *           fork and exec, system(3), or exec in place of itself
 *   daemon  a double fork and setsid; the grandchild (INTRUDER_TOKEN in its
 *           environment) closes its descriptors and sleeps 600 s
 * At show time it then logs "attempted ATTACK: OUTCOME" through the host
 * (the test's command waits for that line); after a load-time attempt that
 * is its description. Every call is plain libc, as a plugin author would
 * write it.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "presenter_abi.h"

#define MARKER "INTRUDER-MARKER\n"

static const char *setting(const char *name) {
    const char *value = getenv(name);
    return value != NULL ? value : "";
}

/* Whether INTRUDER_WHEN asks for an attempt at `when` (load or show). */
static int attempts_at(const char *when) {
    return strcmp(setting("INTRUDER_WHEN"), when) == 0 || strcmp(setting("INTRUDER_WHEN"), "both") == 0;
}

/* The command line of the process that loaded it: glibc passes argc and
 * argv to the constructors of a library dlopen loads, as to the program's. */
static int saved_argc;
static char **saved_argv;

/* What an attempt came to, in words, for the log line. */
static char outcome[512];

static void failed(const char *what) { snprintf(outcome, sizeof outcome, "%s: %s", what, strerror(errno)); }

static void done(const char *what) { snprintf(outcome, sizeof outcome, "%s", what); }

/* Reads up to size-1 bytes of a file; -1 when it cannot be opened or read. */
static ssize_t slurp(const char *path, char *buffer, size_t size) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    ssize_t total = 0, count;
    while (total < (ssize_t)size - 1 && (count = read(fd, buffer + total, size - 1 - total)) > 0) total += count;
    close(fd);
    buffer[total] = '\0';
    return count < 0 ? -1 : total;
}

/* The fields of /proc/PID/stat after the command name: state, ppid, pgrp,
 * session, tty_nr (fields 3 to 7). */
static int stat_fields(pid_t pid, long fields[5]) {
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    if (slurp(path, text, sizeof text) < 0) return -1;
    char *end = strrchr(text, ')');
    if (end == NULL || end[1] != ' ' || end[2] == '\0') return -1;
    fields[0] = end[2];
    char *cursor = end + 3;
    for (int i = 1; i < 5; i++) fields[i] = strtol(cursor, &cursor, 10);
    return 0;
}

/* This process's pid as /proc names it. In a PID namespace of its own
 * getpid() is 1, but /proc here is the host's mount, which names processes
 * as the host sees them: /proc/self's link is the number to skip. */
static pid_t self_pid(void) {
    char link[32];
    ssize_t length = readlink("/proc/self", link, sizeof link - 1);
    if (length <= 0) return getpid();
    link[length] = '\0';
    return (pid_t)strtol(link, NULL, 10);
}

/* The host: the process that started this one. A root of its own hides
 * /proc/HOST and /proc/self/stat, so the test says it (INTRUDER_HOST_PID),
 * so that what is aimed at the host is aimed at the real one. Otherwise:
 * getppid() says 0 in a PID namespace of our own, but /proc/self/stat (the
 * host's /proc mount) gives the parent as the host sees it; the presenter
 * process's command line also ends with it (presenter-host
 * --presenter-process HOSTPID), and the scan helper's parent is the host
 * that started it. getppid() is the last try. */
static pid_t host_pid(void) {
    long told = strtol(setting("INTRUDER_HOST_PID"), NULL, 10);
    if (told > 0) return (pid_t)told;
    long fields[5];
    if (stat_fields(self_pid(), fields) == 0 && fields[1] > 0) return (pid_t)fields[1];
    char line[4096];
    ssize_t length = slurp("/proc/self/cmdline", line, sizeof line);
    if (length > 1) {
        const char *last = line;
        for (ssize_t i = 0; i < length - 1; i++) {
            if (line[i] == '\0') last = line + i + 1;
        }
        long pid = strtol(last, NULL, 10);
        if (pid > 0) return (pid_t)pid;
    }
    return getppid();
}

static void signal_host(int signal, const char *name) {
    pid_t host = host_pid();
    char what[64];
    snprintf(what, sizeof what, "kill(%d, %s)", (int)host, name);
    pid_t parent = getppid();
    if (kill(host, signal) != 0) return failed(what);
    if (signal == SIGTERM) {
        /* The host handles a SIGTERM on a thread of its own: it passes it on
         * to the command and ends as the command ends. Saying "attempted"
         * at once would race that (the trial's command exits 3 when it reads
         * it): wait for the host to go first, as it will (this process then
         * goes with it), 20 s at most. */
        struct timespec step = {0, 5 * 1000 * 1000};
        for (int i = 0; i < 4000 && getppid() == parent && kill(host, 0) == 0; i++) nanosleep(&step, NULL);
    }
    done(what);
}

static void trace_host(void) {
    pid_t host = host_pid();
    /* Attached and never continued: the host stays stopped. */
    if (ptrace(PTRACE_ATTACH, host, NULL, NULL) != 0) return failed("ptrace(PTRACE_ATTACH)");
    done("ptrace(PTRACE_ATTACH)");
}

/* A signal with no kill(2): the kernel signals the owner of a file whose
 * I/O is asynchronous, with the signal F_SETSIG chose, when data arrives. */
static void signal_host_through_io(void) {
    pid_t host = host_pid();
    int fds[2];
    if (pipe(fds) != 0) return failed("pipe");
    if (fcntl(fds[0], F_SETOWN, host) != 0) return failed("fcntl(F_SETOWN)");
    if (fcntl(fds[0], F_SETSIG, SIGKILL) != 0) return failed("fcntl(F_SETSIG)");
    if (fcntl(fds[0], F_SETFL, O_ASYNC | O_NONBLOCK) != 0) return failed("fcntl(F_SETFL, O_ASYNC)");
    if (write(fds[1], "x", 1) != 1) return failed("write");
    done("SIGKILL through SIGIO");
}

static int is_number(const char *name) { return name[0] >= '1' && name[0] <= '9'; }

/* Kills every process `pass` finds (0: by the token in its environment; 1:
 * a child of the host's); the number found, or -1 when /proc cannot be listed. */
static int kill_found(int pass, pid_t me, pid_t host, int *killed) {
    char needle[160];
    snprintf(needle, sizeof needle, "INTRUDER_TOKEN=%s", setting("INTRUDER_TOKEN"));
    DIR *proc = opendir("/proc");
    if (proc == NULL) return -1;
    int found = 0;
    struct dirent *entry;
    while ((entry = readdir(proc)) != NULL) {
        if (!is_number(entry->d_name)) continue;
        pid_t pid = (pid_t)strtol(entry->d_name, NULL, 10);
        if (pid == me || pid == host) continue;
        int target = 0;
        if (pass == 0) {
            /* The environment, NUL-separated: one entry at a time. */
            char path[64], environment[16384];
            snprintf(path, sizeof path, "/proc/%d/environ", (int)pid);
            ssize_t length = slurp(path, environment, sizeof environment);
            for (ssize_t i = 0; i < length; i += (ssize_t)strlen(environment + i) + 1) {
                if (strcmp(environment + i, needle) == 0) target = 1;
            }
        } else {
            /* Reading another process's environment needs the right to
             * trace it (root without capabilities has not it over root
             * with them); its stat is for anyone to read. */
            long fields[5];
            target = stat_fields(pid, fields) == 0 && fields[1] == host;
        }
        if (!target) continue;
        found++;
        if (kill(pid, SIGKILL) == 0) (*killed)++;
    }
    closedir(proc);
    return found;
}

static void kill_command(void) {
    pid_t me = self_pid(), host = host_pid();
    /* The host may show its presenter before it has started the command:
     * look again for up to 2 s (a hook's budget is the user's to set). */
    int killed = 0, found = 0;
    for (int tries = 0; tries < 200 && found == 0; tries++) {
        for (int pass = 0; pass < 2 && found == 0; pass++) {
            found = kill_found(pass, me, host, &killed);
            if (found < 0) return failed("opendir(/proc)");
        }
        if (found == 0) {
            struct timespec pause = {0, 10000000};
            nanosleep(&pause, NULL);
        }
    }
    if (killed == 0) {
        if (found == 0) errno = ESRCH;
        snprintf(outcome, sizeof outcome, "found %d processes to kill, killed none: %s", found, strerror(errno));
        return;
    }
    snprintf(outcome, sizeof outcome, "killed %d of %d processes", killed, found);
}

static void write_marker(const char *path, int flags, const char *what) {
    int fd = open(path, flags | O_WRONLY | O_CLOEXEC, 0644);
    if (fd < 0) return failed(what);
    ssize_t written = write(fd, MARKER, strlen(MARKER));
    int saved = errno;
    close(fd);
    errno = saved;
    if (written != (ssize_t)strlen(MARKER)) return failed(what);
    done(what);
}

static void write_host_descriptor(int number) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/%d", (int)host_pid(), number);
    write_marker(path, O_APPEND | O_NOCTTY, path);
}

/* The host's terminal: where its stderr leads, or, when that link cannot
 * be read, its controlling terminal's device number (a pseudo-terminal's
 * majors are 136 to 143) from its stat, which anyone may read. */
static void write_terminal(void) {
    pid_t host = host_pid();
    char path[64], target[256] = "";
    snprintf(path, sizeof path, "/proc/%d/fd/2", (int)host);
    ssize_t length = readlink(path, target, sizeof target - 1);
    if (length > 0) target[length] = '\0';
    if (strncmp(target, "/dev/pts/", 9) != 0) {
        long fields[5];
        if (stat_fields(host, fields) != 0) return failed("the host's terminal");
        unsigned high = major((dev_t)fields[4]), low = minor((dev_t)fields[4]);
        if (high < 136 || high > 143) {
            errno = ENOTTY;
            return failed("the host's terminal");
        }
        snprintf(target, sizeof target, "/dev/pts/%u", (high - 136) * 256 + low);
    }
    write_marker(target, O_NOCTTY, target);
}

static char stolen[256];

static void read_secret(void) {
    char path[4096];
    snprintf(path, sizeof path, "%s/secret", setting("INTRUDER_HOME"));
    if (slurp(path, stolen, sizeof stolen) < 0) {
        stolen[0] = '\0';
        return failed(path);
    }
    stolen[strcspn(stolen, "\n")] = '\0';
    done("read the secret");
}

static void send_over(int family, int type, const struct sockaddr *address, socklen_t size, const char *what) {
    int fd = socket(family, type | SOCK_CLOEXEC, 0);
    if (fd < 0) return failed(what);
    ssize_t sent;
    if (type == SOCK_DGRAM) {
        sent = sendto(fd, MARKER, strlen(MARKER), 0, address, size);
    } else {
        if (connect(fd, address, size) != 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return failed(what);
        }
        sent = send(fd, MARKER, strlen(MARKER), MSG_NOSIGNAL);
    }
    int saved = errno;
    close(fd);
    errno = saved;
    if (sent != (ssize_t)strlen(MARKER)) return failed(what);
    done(what);
}

static void send_to_loopback(int type, const char *port, const char *what) {
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port))};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    send_over(AF_INET, type, (const struct sockaddr *)&address, sizeof address, what);
}

static void send_to_unix(int abstract) {
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    const char *name = setting(abstract ? "INTRUDER_ABSTRACT" : "INTRUDER_UNIX_PATH");
    size_t length = strlen(name);
    if (length + 1 >= sizeof address.sun_path) length = sizeof address.sun_path - 2;
    memcpy(address.sun_path + (abstract ? 1 : 0), name, length);
    socklen_t size = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + length + 1);
    send_over(AF_UNIX, SOCK_STREAM, (const struct sockaddr *)&address, size, abstract ? "abstract" : "unix");
}

static const char *const shell_line = "echo ran > \"$INTRUDER_MARK\"";

static void fork_exec(void) {
    pid_t child = fork();
    if (child < 0) return failed("fork");
    if (child == 0) {
        execl("/bin/sh", "sh", "-c", shell_line, (char *)NULL);
        _exit(127);
    }
    int status = 0;
    waitpid(child, &status, 0);
    snprintf(outcome, sizeof outcome, "sh ended with status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void run_system(void) {
    int status = system(shell_line);
    if (status == -1) return failed("system");
    snprintf(outcome, sizeof outcome, "system returned %d", status);
}

static void exec_in_place(void) {
    execl("/bin/sh", "sh", "-c", shell_line, (char *)NULL);
    failed("execl");
}

static void leave_a_daemon(void) {
    pid_t child = fork();
    if (child < 0) return failed("fork");
    if (child == 0) {
        setsid();
        if (fork() == 0) {
            /* A daemon holds no descriptor of its parent's (the host would
             * notice a pipe that never ends). */
            for (int fd = 0; fd < 1024; fd++) close(fd);
            struct timespec wait = {600, 0};
            while (nanosleep(&wait, &wait) != 0 && errno == EINTR) {
            }
        }
        _exit(0);
    }
    waitpid(child, NULL, 0);
    done("forked a daemon");
}

/* A core file: as large a limit as the hard one allows, then a crash. */
static void dump_core(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_CORE, &limit) == 0) {
        limit.rlim_cur = limit.rlim_max;
        (void)setrlimit(RLIMIT_CORE, &limit);
    }
    volatile int *nowhere = NULL;
    *nowhere = 1;
}

static void signal_host_through_pidfd(void) {
    pid_t host = host_pid();
    int fd = (int)syscall(SYS_pidfd_open, host, 0);
    if (fd < 0) return failed("pidfd_open");
    if (syscall(SYS_pidfd_send_signal, fd, SIGKILL, NULL, 0) != 0) return failed("pidfd_send_signal");
    done("pidfd_send_signal(SIGKILL)");
}

/* What leak-environment publishes: "leaked:" and the variable's value. */
static char leaked[256];

static void leak_environment(void) {
    const char *name = setting("INTRUDER_SECRET_NAME");
    const char *value = getenv(name);
    snprintf(leaked, sizeof leaked, "leaked:%s", value != NULL ? value : "");
    char named[64];
    if (prctl(PR_SET_NAME, (unsigned long)leaked, 0UL, 0UL, 0UL) == 0) snprintf(named, sizeof named, "named");
    else snprintf(named, sizeof named, "prctl(PR_SET_NAME): %s", strerror(errno));
    /* The arguments lie end to end: the kernel shows that memory. */
    char overwritten[64] = "argv: none";
    if (saved_argc > 0 && saved_argv != NULL && saved_argv[0] != NULL) {
        char *start = saved_argv[0];
        char *end = saved_argv[saved_argc - 1] + strlen(saved_argv[saved_argc - 1]);
        size_t room = (size_t)(end - start);
        memset(start, 0, room);
        memcpy(start, leaked, strlen(leaked) < room ? strlen(leaked) : room);
        snprintf(overwritten, sizeof overwritten, "argv: %zu bytes overwritten", room);
    }
    fprintf(stderr, "intruder: %s\n", leaked);
    fflush(stderr);
    snprintf(outcome, sizeof outcome, "%s %s; %s; %s", name, value != NULL ? "set" : "not set", named, overwritten);
}

static void set_name(void) {
    if (prctl(PR_SET_NAME, (unsigned long)"INTRUDER-NAME", 0UL, 0UL, 0UL) != 0) return failed("prctl(PR_SET_NAME)");
    done("named INTRUDER-NAME");
}

/* What stat says of a path: its size and mode, or the errno. */
static void describe(const char *path, char *text, size_t size) {
    struct stat info;
    if (stat(path, &info) != 0) {
        snprintf(text, size, "%s: %s", path, strerror(errno));
        return;
    }
    snprintf(text, size, "%s: %lld bytes, mode %o", path, (long long)info.st_size, (unsigned)(info.st_mode & 07777));
}

static void stat_outside(void) {
    char shadow[1024], secret[1024], path[4096];
    describe("/etc/shadow", shadow, sizeof shadow);
    snprintf(path, sizeof path, "%s/secret", setting("INTRUDER_HOME"));
    describe(path, secret, sizeof secret);
    snprintf(outcome, sizeof outcome, "%.200s; %.200s", shadow, secret);
}

static void open_for_reading(const char *path) {
    char text[64];
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return failed(path);
    ssize_t count = read(fd, text, sizeof text);
    close(fd);
    snprintf(outcome, sizeof outcome, "%s: read %zd bytes", path, count);
}

static void foreign_call(int i386) {
    long result;
#if defined(__x86_64__)
    if (i386) {
        result = 20; /* getpid, as i386 numbers it */
        __asm__ volatile("int $0x80" : "+a"(result) : : "memory");
    } else {
        result = syscall(0x40000000 | 39); /* getpid, as x32 numbers it */
    }
#else
    (void)i386;
    result = -ENOSYS;
#endif
    snprintf(outcome, sizeof outcome, "returned %ld", result);
}

static void attack(void) {
    const char *name = setting("INTRUDER_ATTACK");
    char path[4096];
    outcome[0] = '\0';
    if (strcmp(name, "kill-host-sigkill") == 0) signal_host(SIGKILL, "SIGKILL");
    else if (strcmp(name, "kill-host-sigterm") == 0) signal_host(SIGTERM, "SIGTERM");
    else if (strcmp(name, "kill-host-sigstop") == 0) signal_host(SIGSTOP, "SIGSTOP");
    else if (strcmp(name, "ptrace-host") == 0) trace_host();
    else if (strcmp(name, "pidfd-host") == 0) signal_host_through_pidfd();
    else if (strcmp(name, "sigio-host") == 0) signal_host_through_io();
    else if (strcmp(name, "kill-command") == 0) kill_command();
    else if (strcmp(name, "write-stdout") == 0) write_host_descriptor(1);
    else if (strcmp(name, "write-stderr") == 0) write_host_descriptor(2);
    else if (strcmp(name, "write-terminal") == 0) write_terminal();
    else if (strcmp(name, "write-tty") == 0) write_marker("/dev/tty", O_NOCTTY, "/dev/tty");
    else if (strcmp(name, "read-secret") == 0) read_secret();
    else if (strcmp(name, "write-home") == 0) {
        snprintf(path, sizeof path, "%s/intruder-wrote", setting("INTRUDER_HOME"));
        write_marker(path, O_CREAT | O_TRUNC, path);
    } else if (strcmp(name, "write-tmp") == 0) {
        snprintf(path, sizeof path, "/tmp/intruder-%s", setting("INTRUDER_TOKEN"));
        write_marker(path, O_CREAT | O_TRUNC, path);
    } else if (strcmp(name, "tcp") == 0) send_to_loopback(SOCK_STREAM, setting("INTRUDER_TCP_PORT"), "tcp");
    else if (strcmp(name, "udp") == 0) send_to_loopback(SOCK_DGRAM, setting("INTRUDER_UDP_PORT"), "udp");
    else if (strcmp(name, "unix") == 0) send_to_unix(0);
    else if (strcmp(name, "abstract") == 0) send_to_unix(1);
    else if (strcmp(name, "fork-exec") == 0) fork_exec();
    else if (strcmp(name, "system") == 0) run_system();
    else if (strcmp(name, "execve") == 0) exec_in_place();
    else if (strcmp(name, "daemon") == 0) leave_a_daemon();
    else if (strcmp(name, "core") == 0) dump_core();
    else if (strcmp(name, "leak-environment") == 0) leak_environment();
    else if (strcmp(name, "set-name") == 0) set_name();
    else if (strcmp(name, "stat-shadow") == 0) stat_outside();
    else if (strcmp(name, "mountinfo") == 0) open_for_reading("/proc/self/mountinfo");
    else if (strcmp(name, "proc-net") == 0) open_for_reading("/proc/net/dev");
    else if (strcmp(name, "int80") == 0) foreign_call(1);
    else if (strcmp(name, "x32") == 0) foreign_call(0);
    else done("nothing");
}

/* What the host reads from the descriptor after a constructor ran: the name
 * (--list prints it) carries what a load-time read-secret stole, and the
 * description what came of the attempt (--list --json shows it). */
static char name[300] = "Intruder";
static char description[512] = "Draws a box, and tries what INTRUDER_ATTACK names";

__attribute__((constructor)) static void at_load(int argc, char **argv) {
    saved_argc = argc;
    saved_argv = argv;
    if (!attempts_at("load")) return;
    attack();
    if (stolen[0] != '\0') snprintf(name, sizeof name, "Intruder %s", stolen);
    snprintf(description, sizeof description, "attempted %.40s: %.300s%s%.100s", setting("INTRUDER_ATTACK"), outcome,
             leaked[0] != '\0' ? " " : "", leaked);
}

typedef struct state {
    const presenter_host *host;
    presenter_context *ctx;
    char message[256];
    int shown;
} state;

static presenter_status i_create(const presenter_descriptor *descriptor, const presenter_host *host,
                                 presenter_context *ctx, void **instance) {
    (void)descriptor;
    state *self = calloc(1, sizeof *self);
    if (self == NULL) return PRESENTER_ERR_NO_MEMORY;
    self->host = host;
    self->ctx = ctx;
    *instance = self;
    return PRESENTER_OK;
}

static void i_destroy(void *instance) { free(instance); }

static presenter_status i_show(void *instance, presenter_view *view, const char *message,
                               const presenter_interactor *interactor) {
    (void)view;
    (void)interactor;
    state *self = instance;
    snprintf(self->message, sizeof self->message, "%s", message);
    self->shown = 1;
    static int attempted;
    if (!attempted && attempts_at("show")) {
        attempted = 1;
        attack();
        char line[600];
        if (stolen[0] != '\0') {
            snprintf(line, sizeof line, "stolen: %s", stolen);
            self->host->log(self->ctx, PRESENTER_LOG_INFO, line);
        }
        if (leaked[0] != '\0') self->host->log(self->ctx, PRESENTER_LOG_INFO, leaked);
        snprintf(line, sizeof line, "attempted %s: %s", setting("INTRUDER_ATTACK"), outcome);
        self->host->log(self->ctx, PRESENTER_LOG_INFO, line);
    }
    return PRESENTER_OK;
}

static presenter_status i_hide(void *instance, presenter_view *view, const char *message,
                               const presenter_interactor *interactor, const presenter_failure *failure) {
    (void)view;
    (void)message;
    (void)interactor;
    (void)failure;
    ((state *)instance)->shown = 0;
    return PRESENTER_OK;
}

static void i_render(void *instance, presenter_view *view, uint64_t now_ns) {
    (void)now_ns;
    state *self = instance;
    if (!self->shown) return;
    const presenter_host *host = self->host;
    uint32_t cols = 0, rows = 0;
    host->view_size(view, &cols, &rows);
    if (cols < 8 || rows < 3) return;
    uint32_t width = host->text_width(view, self->message) + 4;
    if (width > cols) width = cols;
    host->draw_box(view, 0, 0, width, 3, PRESENTER_COLOR_DEFAULT);
    host->draw_text(view, 2, 1, width - 4, self->message, PRESENTER_COLOR_DEFAULT);
}

static presenter_descriptor descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = "fixture.intruder",
    .name = name,
    .version = "1.0.0",
    .description = description,
    .capabilities = PRESENTER_CAP_MESSAGES,
    .create = i_create,
    .destroy = i_destroy,
    .show = i_show,
    .hide = i_hide,
    .render = i_render,
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index == 0 ? &descriptor : NULL;
}
