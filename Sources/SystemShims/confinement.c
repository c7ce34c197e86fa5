/*
 * The kernel's means of confining a process that runs plugin code, as thin
 * calls: a root of its own (a mount namespace, a tmpfs, bind mounts,
 * pivot_root), Landlock (its three system calls, which Glibc does not
 * wrap), no_new_privs and capabilities, and the SIGSYS handler that tells
 * the host which call a seccomp filter stopped. The policy (which calls,
 * which folders) is the host's, in PluginConfinement.swift; the seccomp
 * filter is built there with libseccomp.
 */
#define _GNU_SOURCE
#include "system_shims.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#ifndef SYS_SECCOMP
#define SYS_SECCOMP 1 /* si_code of a SIGSYS from a seccomp filter (asm-generic/siginfo.h) */
#endif
#define PH_LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#define PH_LANDLOCK_RULE_PATH_BENEATH 1

/* struct landlock_ruleset_attr as of ABI 6; the kernel takes the first 8
 * bytes (ABI 1 to 3), 16 (ABI 4 and 5) or all 24. */
struct ph_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

/* struct landlock_path_beneath_attr: packed in the kernel's header. */
struct ph_path_beneath_attr {
    uint64_t allowed_access;
    int32_t parent_fd;
} __attribute__((packed));

int ph_landlock_abi(void) {
    return (int)syscall(SYS_landlock_create_ruleset, NULL, 0, PH_LANDLOCK_CREATE_RULESET_VERSION);
}

int ph_landlock_ruleset(uint64_t handled_fs, uint64_t handled_net, uint64_t scoped) {
    struct ph_ruleset_attr attr = {handled_fs, handled_net, scoped};
    size_t size = scoped ? 24 : handled_net ? 16 : 8;
    return (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
}

int ph_landlock_allow(int ruleset, int fd, uint64_t access) {
    struct ph_path_beneath_attr attr = {access, fd};
    return (int)syscall(SYS_landlock_add_rule, ruleset, PH_LANDLOCK_RULE_PATH_BENEATH, &attr, 0);
}

int ph_landlock_restrict(int ruleset) {
    return (int)syscall(SYS_landlock_restrict_self, ruleset, 0);
}

/* ---- a root of its own ------------------------------------------------- */

/* Makes the folders of `relative` (a path relative to `root`, whose last
 * component is left to the caller); 0, or -1 and errno. */
static int make_parents(int root, const char *relative) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s", relative) >= (int)sizeof path) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *slash = strchr(path, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        int made = mkdirat(root, path, 0755);
        *slash = '/';
        if (made != 0 && errno != EEXIST) return -1;
    }
    return 0;
}

/* Makes the bind mount at `target` read-only, with every mount beneath it.
 * mount_setattr (Linux 5.12) sets the flag alone; a remount (older kernels,
 * the top mount only) must repeat the flags the mount has, as a user
 * namespace locks nosuid, nodev, noexec and the atime flags of a mount it
 * did not make. */
static int make_read_only(const char *target) {
    struct {
        uint64_t attr_set, attr_clr, propagation, userns_fd;
    } attr = {0x00000001 /* MOUNT_ATTR_RDONLY */, 0, 0, 0};
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
    if (syscall(SYS_mount_setattr, AT_FDCWD, target, 0x8000 /* AT_RECURSIVE */, &attr, sizeof attr) == 0) return 0;
    if (errno != ENOSYS) return -1;
    struct statvfs info;
    if (statvfs(target, &info) != 0) return -1;
    unsigned long flags = MS_REMOUNT | MS_BIND | MS_RDONLY;
    if (info.f_flag & ST_NOSUID) flags |= MS_NOSUID;
    if (info.f_flag & ST_NODEV) flags |= MS_NODEV;
    if (info.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
    if (info.f_flag & ST_NOATIME) flags |= MS_NOATIME;
    if (info.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
    if (info.f_flag & ST_RELATIME) flags |= MS_RELATIME;
    return mount(NULL, target, NULL, flags, NULL);
}

int ph_enter_own_root(const struct ph_root_entry *entries, int count, const char *scratch, int *step) {
    int result = -1;
    int *sources = calloc((size_t)(count > 0 ? count : 1), sizeof *sources);
    int root = -1;
    if (sources == NULL) return ENOMEM;
    for (int i = 0; i < count; i++) sources[i] = -1;
#define FAIL_AT(s) \
    do { \
        *step = (s); \
        goto done; \
    } while (0)
    /* Its own mount namespace (in its own user namespace, where it may),
     * whose mounts no longer reach the host's or come from it. */
    if (unshare(CLONE_NEWNS) != 0) FAIL_AT(PH_ROOT_UNSHARE);
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0) FAIL_AT(PH_ROOT_PRIVATE);
    /* Each source, held before the tmpfs hides what lies beneath `scratch`. */
    for (int i = 0; i < count; i++) {
        if (entries[i].link != NULL) continue;
        sources[i] = open(entries[i].path, O_PATH | O_CLOEXEC);
        if (sources[i] < 0 && errno != ENOENT) FAIL_AT(PH_ROOT_OPEN);
    }
    if (mount("tmpfs", scratch, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0755,size=64k,nr_inodes=4096") != 0)
        FAIL_AT(PH_ROOT_TMPFS);
    root = open(scratch, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) FAIL_AT(PH_ROOT_OPEN);
    /* Every mount point first, then the links: nothing is made through a
     * link or inside a bound folder. */
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < count; i++) {
            const char *relative = entries[i].path + 1;
            if ((pass == 0) != (entries[i].link == NULL) || (pass == 0 && sources[i] < 0)) continue;
            if (make_parents(root, relative) != 0) FAIL_AT(PH_ROOT_MAKE);
            if (pass == 1) {
                if (symlinkat(entries[i].link, root, relative) != 0) FAIL_AT(PH_ROOT_LINK);
                continue;
            }
            struct stat info;
            if (fstat(sources[i], &info) != 0) FAIL_AT(PH_ROOT_OPEN);
            if (S_ISDIR(info.st_mode)) {
                if (mkdirat(root, relative, 0755) != 0 && errno != EEXIST) FAIL_AT(PH_ROOT_MAKE);
            } else {
                int file = openat(root, relative, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0444);
                if (file < 0) FAIL_AT(PH_ROOT_MAKE);
                close(file);
            }
        }
    }
    for (int i = 0; i < count; i++) {
        if (sources[i] < 0) continue;
        char source[64], target[PATH_MAX];
        snprintf(source, sizeof source, "/proc/self/fd/%d", sources[i]);
        if (snprintf(target, sizeof target, "%s%s", scratch, entries[i].path) >= (int)sizeof target) {
            errno = ENAMETOOLONG;
            FAIL_AT(PH_ROOT_BIND);
        }
        if (mount(source, target, NULL, MS_BIND | MS_REC, NULL) != 0) FAIL_AT(PH_ROOT_BIND);
        if (make_read_only(target) != 0) FAIL_AT(PH_ROOT_READ_ONLY);
        close(sources[i]);
        sources[i] = -1;
    }
    /* The tmpfs becomes the root; the old one, stacked on it by
     * pivot_root(".", "."), is detached: nothing of it can be reached. */
    if (chdir(scratch) != 0) FAIL_AT(PH_ROOT_PIVOT);
    if (syscall(SYS_pivot_root, ".", ".") != 0) FAIL_AT(PH_ROOT_PIVOT);
    if (umount2(".", MNT_DETACH) != 0) FAIL_AT(PH_ROOT_DETACH);
    if (chdir("/") != 0) FAIL_AT(PH_ROOT_DETACH);
    if (mount(NULL, "/", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        FAIL_AT(PH_ROOT_SEAL);
    result = 0;
#undef FAIL_AT
done:;
    int error = result == 0 ? 0 : errno;
    for (int i = 0; i < count; i++) {
        if (sources[i] >= 0) close(sources[i]);
    }
    if (root >= 0) close(root);
    free(sources);
    return error;
}

int ph_no_new_privileges(void) {
    return prctl(PR_SET_NO_NEW_PRIVS, 1UL, 0UL, 0UL, 0UL);
}

int ph_drop_capabilities(void) {
    (void)prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0UL, 0UL, 0UL);
    /* The bounding set needs CAP_SETPCAP, which goes last: a process
     * without it keeps a bounding set that no_new_privs makes harmless. */
    for (unsigned long cap = 0; cap <= 63; cap++) {
        if (prctl(PR_CAPBSET_READ, cap, 0UL, 0UL, 0UL) < 0) break; /* past the last one */
        (void)prctl(PR_CAPBSET_DROP, cap, 0UL, 0UL, 0UL);
    }
    struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct data[2];
    memset(data, 0, sizeof data);
    return (int)syscall(SYS_capset, &header, data);
}

/* ---- the violation reporter: async-signal-safe, system calls only ------- */

static int violation_fd = -1;

/* The signals that end a process by default and that a process may send
 * itself: as process 1 of a PID namespace it would outlive each of them. */
static const int ending_signals[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGTRAP,   SIGABRT, SIGUSR1, SIGUSR2, SIGALRM,
                                     SIGTERM, SIGSTKFLT, SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO,  SIGPWR};

static void send_record(uint32_t kind, int number, uint32_t arch, const uint64_t args[6]) {
    struct ph_violation record;
    memset(&record, 0, sizeof record);
    record.magic = PH_VIOLATION_MAGIC;
    record.kind = kind;
    record.number = number;
    record.arch = arch;
    if (args != NULL) memcpy(record.args, args, sizeof record.args);
    if (violation_fd >= 0) {
        while (write(violation_fd, &record, sizeof record) < 0 && errno == EINTR) {
        }
    }
}

static int namespace_init;

/* Ends the process as `signal` would: with it, where it can; as process 1
 * of a PID namespace, with 128 + it (after the record that says so). */
static void end_with(int signal) {
    send_record(PH_VIOLATION_SIGNAL, signal, 0, NULL);
    if (!namespace_init) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = SIG_DFL;
        if (sigaction(signal, &action, NULL) == 0) {
            sigset_t set;
            sigemptyset(&set);
            sigaddset(&set, signal);
            sigprocmask(SIG_UNBLOCK, &set, NULL);
            syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), signal);
        }
    }
    _exit(128 + signal);
}

static void on_sigsys(int signal, siginfo_t *info, void *context) {
    if (info->si_code != SYS_SECCOMP) end_with(signal);
    uint64_t args[6] = {0};
    const ucontext_t *state = context;
#if defined(__x86_64__)
    /* A 32-bit call (int 0x80) takes its arguments in other registers. */
    const int native[6] = {REG_RDI, REG_RSI, REG_RDX, REG_R10, REG_R8, REG_R9};
    const int i386[6] = {REG_RBX, REG_RCX, REG_RDX, REG_RSI, REG_RDI, REG_RBP};
    const int *registers = info->si_arch == AUDIT_ARCH_I386 ? i386 : native;
    for (int i = 0; i < 6; i++) args[i] = (uint64_t)state->uc_mcontext.gregs[registers[i]];
#elif defined(__aarch64__)
    for (int i = 0; i < 6; i++) args[i] = (uint64_t)state->uc_mcontext.regs[i];
#else
    (void)state;
#endif
    send_record(PH_VIOLATION_SYSTEM_CALL, info->si_syscall, info->si_arch, args);
    /* SIGSYS is blocked while this handler runs, and the filter stops the
     * same call again: the kernel then sets SIGSYS's default action and
     * ends the process with it, process 1 of a namespace too. A call of
     * another architecture is made again as that architecture (an x32
     * call's number carries its bit): made natively, its number would name
     * another call, which the filter might allow. */
#if defined(__x86_64__)
    if (info->si_arch == AUDIT_ARCH_I386) {
        long number = info->si_syscall;
        __asm__ volatile("int $0x80" : "+a"(number) : : "memory");
        _exit(128 + SIGSYS);
    }
#endif
    if (info->si_arch == ph_native_audit_arch()) {
        syscall(info->si_syscall, args[0], args[1], args[2], args[3], args[4], args[5]);
    }
    _exit(128 + SIGSYS);
}

static void on_ending_signal(int signal) { end_with(signal); }

uint32_t ph_native_audit_arch(void) {
#if defined(__x86_64__)
    return AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
    return AUDIT_ARCH_AARCH64;
#else
    return 0;
#endif
}

int ph_report_violations(int fd, int as_namespace_init) {
    violation_fd = fd;
    namespace_init = as_namespace_init;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigsys;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    if (sigaction(SIGSYS, &action, NULL) != 0) return -1;
    if (!as_namespace_init) return 0;
    for (size_t i = 0; i < sizeof ending_signals / sizeof ending_signals[0]; i++) {
        struct sigaction ending;
        memset(&ending, 0, sizeof ending);
        ending.sa_handler = on_ending_signal;
        sigemptyset(&ending.sa_mask);
        if (sigaction(ending_signals[i], &ending, NULL) != 0) return -1;
    }
    return 0;
}
