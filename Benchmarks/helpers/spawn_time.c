/* Times one command as a whole process, from a small C process, so that
 * neither the bench's Python (a fork of it takes milliseconds) nor its
 * memory (a vfork child's peak RSS counts its parent's pages) is counted:
 *   spawn_time COMMAND [ARG...]
 *   spawn_time --pty COMMAND [ARG...]
 * runs COMMAND with stdin, stdout and stderr on /dev/null (posix_spawnp, the
 * environment inherited), or with --pty in a new 80x24 pty (forkpty) whose
 * output it reads until every holder of the terminal has closed it, and
 * prints on stdout
 *   <wall seconds> <wait status> <peak RSS KiB> <CPU seconds> <bytes drawn>
 * (wait4's rusage: the command and the children it reaped; the bytes read
 * from the pty, 0 on /dev/null). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pty.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* Starts argv in a new 80x24 pty and reads it to its end; returns the pid. */
static pid_t in_pty(char **argv, long *drawn) {
    struct winsize size = {.ws_row = 24, .ws_col = 80};
    int master;
    pid_t pid = forkpty(&master, NULL, NULL, &size);
    if (pid == 0) {
        execvp(argv[0], argv);
        _exit(127);
    }
    if (pid < 0) return -1;
    char buffer[65536];
    for (;;) {
        ssize_t got = read(master, buffer, sizeof buffer);
        if (got > 0)
            *drawn += got;
        else if (got == 0 || errno != EINTR)
            break; /* EIO: the last holder of the terminal closed it */
    }
    close(master);
    return pid;
}

int main(int argc, char **argv) {
    int pty = argc > 1 && strcmp(argv[1], "--pty") == 0;
    if (argc < 2 + pty) {
        fprintf(stderr, "usage: spawn_time [--pty] COMMAND [ARG...]\n");
        return 64;
    }
    char **command = argv + 1 + pty;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    for (int fd = 0; fd < 3; fd++) posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDWR, 0);
    struct timespec start, end;
    long drawn = 0;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid = -1;
    if (pty)
        pid = in_pty(command, &drawn);
    else if (posix_spawnp(&pid, command[0], &actions, NULL, command, environ) != 0)
        pid = -1;
    if (pid < 0) {
        perror(command[0]);
        return 127;
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) != pid) return 1;
    clock_gettime(CLOCK_MONOTONIC, &end);
    double wall = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
    double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
                 usage.ru_stime.tv_usec / 1e6;
    printf("%.9f %d %ld %.6f %ld\n", wall, status, usage.ru_maxrss, cpu, drawn);
    return 0;
}
