/* libdispatch (Swift 6.3.1, Linux) traps on its own (docs/SOAK.md, "What it
 * found"): a read source on a pipe whose writer writes and closes (data and
 * EPOLLHUP in one epoll event, as a child's pipe ends), read to its end and
 * cancelled by its handler, the descriptor closed in the cancel handler as
 * libdispatch asks. The manager thread merges the data (a worker starts
 * invoking the source), then the hang-up (it marks the source for deletion);
 * the worker deletes it on its own queue, and the manager, finding it
 * deleted, finalizes it a second time: DISPATCH_INTERNAL_CRASH "Source
 * finalized twice", a SIGILL in _dispatch_source_refs_finalize_unregistration
 * on a "-qos.overcommit" thread ("traps: -qos.overcommit[...] trap invalid
 * opcode ... in libdispatch.so" in dmesg).
 *
 *     /opt/swift/usr/bin/clang -O1 -fblocks -I/opt/swift/usr/lib/swift \
 *         -o hup-race docs/soak/libdispatch-hup-race.c \
 *         -L/opt/swift/usr/lib/swift/linux -ldispatch -lBlocksRuntime -lpthread \
 *         -Wl,-rpath,/opt/swift/usr/lib/swift/linux
 *     for i in $(seq 20); do ./hup-race 6 20000 || echo "status $?"; done
 *
 * On a loaded 2-core machine, 4 of 20 runs of 120,000 rounds ended with
 * status 132 (SIGILL). presenter-host reads such pipes on threads of its
 * own (OutputPump) and closes its signal pipe only once libdispatch has let
 * go of it (SignalTrap). THREADS loops of ROUNDS; exit 0 when all ended. */
#define _GNU_SOURCE
#include <dispatch/dispatch.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct round { int fd; dispatch_source_t source; dispatch_semaphore_t done; };

static void on_event(void *context) {
    struct round *r = context;
    char buffer[64];
    for (;;) {
        ssize_t n = read(r->fd, buffer, sizeof buffer);
        if (n > 0) continue;
        if (n == 0) dispatch_source_cancel(r->source);  /* end of file */
        return;
    }
}

static void on_cancel(void *context) {
    struct round *r = context;
    close(r->fd);  /* only now: libdispatch let go of it */
    dispatch_semaphore_signal(r->done);
}

static int rounds;

static void *loop(void *unused) {
    (void)unused;
    for (int i = 0; i < rounds; i++) {
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0) abort();
        fcntl(p[0], F_SETFL, O_NONBLOCK);
        struct round r = {.fd = p[0], .done = dispatch_semaphore_create(0)};
        dispatch_queue_t queue = dispatch_queue_create("pump", NULL);
        r.source = dispatch_source_create(DISPATCH_SOURCE_TYPE_READ, (uintptr_t)p[0], 0, queue);
        dispatch_set_context(r.source, &r);
        dispatch_source_set_event_handler_f(r.source, on_event);
        dispatch_source_set_cancel_handler_f(r.source, on_cancel);
        dispatch_resume(r.source);
        if (write(p[1], "x", 1) != 1) abort();
        close(p[1]);  /* the child's last write, then its exit */
        dispatch_semaphore_wait(r.done, DISPATCH_TIME_FOREVER);
        dispatch_release(r.source);
        dispatch_release(queue);
        dispatch_release(r.done);
    }
    return NULL;
}

int main(int argc, char **argv) {
    int threads = argc > 1 ? atoi(argv[1]) : 4;
    rounds = argc > 2 ? atoi(argv[2]) : 10000;
    pthread_t t[64];
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, loop, NULL);
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    printf("%d rounds\n", threads * rounds);
    return 0;
}
