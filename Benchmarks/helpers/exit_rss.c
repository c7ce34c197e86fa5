/* The peak RSS of one process alone, not of its children:
 *   exit_rss COMMAND [ARG...]
 * runs COMMAND with stdin, stdout and stderr on /dev/null (the environment
 * inherited) under ptrace, stops it as it exits (PTRACE_EVENT_EXIT: its
 * memory is still there) and prints on stdout
 *   <VmHWM KiB of COMMAND's process> <wait status>
 * wait4's ru_maxrss would be the largest of the process and every child it
 * reaped (`run`'s presenter process, the command), and sampling /proc from
 * outside misses the peak of a run of a few milliseconds. Children are not
 * traced; the process's own signals are passed on as they come. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

static long vm_hwm(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kib = -1;
    if (f == NULL) return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "VmHWM:", 6) == 0) sscanf(line + 6, "%ld", &kib);
    fclose(f);
    return kib;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: exit_rss COMMAND [ARG...]\n");
        return 64;
    }
    pid_t pid = fork();
    if (pid < 0) return 1;
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        for (int fd = 0; fd < 3; fd++) dup2(null, fd);
        ptrace(PTRACE_TRACEME, 0, NULL, NULL);
        raise(SIGSTOP);
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    int status;
    if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status)) return 1;
    /* An exec is an event stop (not a SIGTRAP sent to the command). */
    ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC | PTRACE_O_EXITKILL));
    ptrace(PTRACE_CONT, pid, NULL, NULL);
    long peak = -1;
    for (;;) {
        if (waitpid(pid, &status, __WALL) != pid) return 1;
        if (WIFEXITED(status) || WIFSIGNALED(status)) break;
        int signal = 0;
        if (status >> 8 == (SIGTRAP | (PTRACE_EVENT_EXIT << 8)))
            peak = vm_hwm(pid);
        else if (status >> 16 == 0)
            signal = WSTOPSIG(status); /* a signal for the command: deliver it */
        ptrace(PTRACE_CONT, pid, NULL, (void *)(long)signal);
    }
    printf("%ld %d\n", peak, status);
    return 0;
}
