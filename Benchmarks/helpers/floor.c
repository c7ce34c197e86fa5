#define _GNU_SOURCE
/* The floor of a frame drawn in another process on this machine, whatever
 * the code on either side: at the spinner's 80 ms a frame, a loop that only
 * sleeps, then the same loop that also sends each frame's request to a second
 * process over a socket pair and waits for its 100-byte answer. Prints the
 * microseconds of CPU a frame of: the sleeping loop, the loop with the round
 * trip, the other process. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
    int frames = argc > 1 ? atoi(argv[1]) : 60;
    struct timespec frame = {0, 80000000};
    char buffer[256] = {0};
    double start = cpu_us();
    for (int i = 0; i < frames; i++) nanosleep(&frame, NULL);
    printf("%.2f", (cpu_us() - start) / frames);
    int pair[2], answer[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0 || pipe(answer) != 0) return 1;
    pid_t child = fork();
    if (child == 0) {
        close(pair[0]);
        double begin = cpu_us();
        for (int i = 0; i < frames; i++) {
            if (recv(pair[1], buffer, sizeof buffer, 0) <= 0) break;
            send(pair[1], buffer, 100, 0);
        }
        char text[64];
        int length = snprintf(text, sizeof text, " %.2f", (cpu_us() - begin) / frames);
        (void)!write(answer[1], text, length);
        _exit(0);
    }
    close(pair[1]);
    start = cpu_us();
    for (int i = 0; i < frames; i++) {
        nanosleep(&frame, NULL);
        send(pair[0], buffer, 40, 0);
        recv(pair[0], buffer, sizeof buffer, 0);
    }
    printf(" %.2f", (cpu_us() - start) / frames);
    fflush(stdout);
    waitpid(child, NULL, 0);
    char text[64] = {0};
    (void)!read(answer[0], text, sizeof text - 1);
    printf("%s\n", text);
    return 0;
}
