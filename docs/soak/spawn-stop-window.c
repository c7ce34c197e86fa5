/* The soak's hang in ph_spawn (docs/SOAK.md, "What it found"), on its own.
 *
 * A stop signal sent to the job's process group while a forked child still
 * belongs to it, with every signal blocked (as ph_spawn's child is between
 * fork and exec), stops that child once it has moved to a process group of
 * its own (Spawn's newProcessGroup: the scan helper, the fetcher) and
 * unblocked: nobody continues that group (a shell's `fg` continues the
 * job's), so the child never execs and its parent waits for ever in
 * ph_spawn's read of the exec report. `./spawn-stop-window fix` discards the
 * pending stop signals (SIG_IGN, then the action back) before unblocking.
 *
 *     cc -o spawn-stop-window docs/soak/spawn-stop-window.c
 *     ./spawn-stop-window       # exit 1: the child ended stopped
 *     ./spawn-stop-window fix   # exit 0 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int fix = argc > 1 && strcmp(argv[1], "fix") == 0;
    setpgid(0, 0);                     /* a job of our own: its group is ours */
    signal(SIGTSTP, SIG_IGN);          /* the "host" (the parent) has its own handling */
    int go[2];
    pipe(go);
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pid_t child = fork();
    if (child == 0) {
        signal(SIGTSTP, SIG_DFL);      /* ph_spawn_child resets dispositions */
        char byte;
        read(go[0], &byte, 1);         /* "the window": Ctrl-Z comes now */
        setpgid(0, 0);                 /* newProcessGroup */
        if (fix) {
            int stops[] = {SIGTSTP, SIGTTIN, SIGTTOU};
            for (int i = 0; i < 3; i++) {
                struct sigaction ignore, old;
                memset(&ignore, 0, sizeof ignore);
                ignore.sa_handler = SIG_IGN;
                sigaction(stops[i], &ignore, &old);   /* discards a pending one */
                sigaction(stops[i], &old, NULL);
            }
        }
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);  /* as before the exec */
        _exit(0);
    }
    pthread_sigmask(SIG_SETMASK, &previous, NULL);
    kill(0, SIGTSTP);                  /* Ctrl-Z: to the whole job's group */
    write(go[1], "x", 1);
    int status;
    waitpid(child, &status, WUNTRACED);
    if (WIFSTOPPED(status)) {
        printf("child stopped by signal %d in its own process group: nothing continues it\n", WSTOPSIG(status));
        kill(child, SIGKILL);
        waitpid(child, &status, 0);
        return 1;
    }
    printf("child ran on and exited\n");
    return 0;
}
