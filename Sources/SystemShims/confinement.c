/*
 * The kernel's means of confining a process that runs plugin code, as thin
 * calls: Landlock (its three system calls, which Glibc does not wrap),
 * no_new_privs and capabilities, and the SIGSYS handler that tells the host
 * which call a seccomp filter stopped. The policy (which calls, which
 * folders) is the host's, in PluginConfinement.swift; the seccomp filter is
 * built there with libseccomp.
 */
#define _GNU_SOURCE
#include "system_shims.h"

#include <errno.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
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
    const int registers[6] = {REG_RDI, REG_RSI, REG_RDX, REG_R10, REG_R8, REG_R9};
    for (int i = 0; i < 6; i++) args[i] = (uint64_t)state->uc_mcontext.gregs[registers[i]];
#elif defined(__aarch64__)
    for (int i = 0; i < 6; i++) args[i] = (uint64_t)state->uc_mcontext.regs[i];
#else
    (void)state;
#endif
    send_record(PH_VIOLATION_SYSTEM_CALL, info->si_syscall, info->si_arch, args);
    /* SIGSYS is blocked while this handler runs, and the filter stops the
     * same call again: the kernel then sets SIGSYS's default action and
     * ends the process with it, process 1 of a namespace too. */
    syscall(info->si_syscall, args[0], args[1], args[2], args[3], args[4], args[5]);
    _exit(128 + SIGSYS);
}

static void on_ending_signal(int signal) { end_with(signal); }

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
