/* Times one command as a whole process, from a small C process, so that
 * neither the bench's Python (a fork of it takes milliseconds) nor its
 * memory (a vfork child's peak RSS counts its parent's pages) is counted:
 *   spawn_time COMMAND [ARG...]
 * runs COMMAND with stdin, stdout and stderr on /dev/null (posix_spawnp, the
 * environment inherited) and prints on stdout
 *   <wall seconds> <wait status> <peak RSS KiB> <CPU seconds>
 * (wait4's rusage: the command and the children it reaped). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: spawn_time COMMAND [ARG...]\n");
        return 64;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    for (int fd = 0; fd < 3; fd++) posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", O_RDWR, 0);
    struct timespec start, end;
    clock_gettime(CLOCK_MONOTONIC, &start);
    pid_t pid;
    if (posix_spawnp(&pid, argv[1], &actions, NULL, argv + 1, environ) != 0) {
        perror(argv[1]);
        return 127;
    }
    int status;
    struct rusage usage;
    if (wait4(pid, &status, 0, &usage) != pid) return 1;
    clock_gettime(CLOCK_MONOTONIC, &end);
    double wall = (end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
    double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
                 usage.ru_stime.tv_usec / 1e6;
    printf("%.9f %d %ld %.6f\n", wall, status, usage.ru_maxrss, cpu);
    return 0;
}
