/*
 * A hostile plugin written from docs/ABI.md and SECURITY.md alone: its
 * library constructor runs wherever the file is loaded, the scan helper
 * included, and the helper reports what the file holds on a pipe that is
 * among the constructor's own descriptors. So the constructor looks for
 * every descriptor that is a pipe open for writing and writes scan-protocol
 * lines on it (ScanProtocol: `result <record>`, `done`), as one compile-time
 * flag says (see Tests/PresenterHostTests/Plugins/ScanForgeryTests.swift):
 *   FORGER_SELF    a record of its own with control, escape and bidi text
 *                  in every field and the id $(id>/tmp/x), then done
 *   FORGER_NEXT    a valid record of its own, then the next file's, as the
 *                  helper would have reported it (a hijacked id)
 *   FORGER_HOLD    a valid record line every 100 ms, for ever
 *   FORGER_FLOOD   lines of 60 KiB, for ever
 *   FORGER_LINGER  replaces its stdin (the host's lifeline) with a pipe of
 *                  its own, then sleeps for ever
 *   FORGER_PROBE   writes nothing: ends the process with the status that
 *                  says what holds it (see `probe` below)
 * Before anything else it ignores SIGUSR2: a test sees in
 * /proc/PID/status (SigIgn) that the constructor has begun.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "presenter_abi.h"

/* Writes `text` on every pipe this process may write to. */
static void forge(const char *text, size_t length) {
    for (int fd = 0; fd < 1024; fd++) {
        struct stat info;
        if (fstat(fd, &info) != 0 || !S_ISFIFO(info.st_mode)) continue;
        int flags = fcntl(fd, F_GETFL);
        if (flags < 0 || (flags & O_ACCMODE) != O_WRONLY) continue;
        size_t written = 0;
        while (written < length) {
            ssize_t count = write(fd, text + written, length - written);
            if (count <= 0) break;
            written += (size_t)count;
        }
    }
}

__attribute__((unused)) static void forge_text(const char *text) { forge(text, strlen(text)); }

__attribute__((unused)) static void sleep_ms(long milliseconds) {
    struct timespec delay = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
    nanosleep(&delay, NULL);
}

/* A record of a presenter with the id `id`, as the host writes one. */
#define RECORD(id) "result P\t0\t" id "\tForged\t1.0\t\x01\t\x01\t\x01\t\x01\t0\t1.2\tshow\n"

#ifdef FORGER_PROBE
/* 9 when the helper dies with its parent (PR_SET_PDEATHSIG SIGKILL) and
 * cannot map 3 GiB (RLIMIT_AS), else 3. */
static void probe(void) {
    int signal = 0;
    prctl(PR_GET_PDEATHSIG, &signal);
    void *memory =
        mmap(NULL, (size_t)3 << 30, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    _exit(signal == SIGKILL && memory == MAP_FAILED ? 9 : 3);
}
#endif

__attribute__((constructor)) static void forger(void) {
    signal(SIGUSR2, SIG_IGN);
#if defined(FORGER_SELF)
    forge_text(
        "result P\t0\t$(id>/tmp/x)\t\x1b]0;owned\x07\x1b[2J\t\xc2\x9b" "31m1.0\t\xe2\x80\xae" "evil\t"
        "\x1b]52;c;b3duZWQ=\x07\t\xe2\x81\xa6lic\t`id`\t3\t1.2\tshow\n"
        "done\n");
#elif defined(FORGER_NEXT)
    forge_text(RECORD("forger.claimed") "done\nbegin\n" RECORD("hijacked") "done\n"
        "done 0\nbegin 1\nresult 1 P\t0\thijacked\tHijacked\t1.0\t\x01\t\x01\t\x01\t\x01\t0\t1.2\tshow\ndone 1\n");
#elif defined(FORGER_HOLD)
    for (;;) {
        forge_text(RECORD("forger.hold"));
        sleep_ms(100);
    }
#elif defined(FORGER_FLOOD)
    static char line[60 * 1024];
    memset(line, 'x', sizeof line);
    memcpy(line, "result ", 7);
    line[sizeof line - 1] = '\n';
    for (;;) forge(line, sizeof line);
#elif defined(FORGER_LINGER)
    int fds[2];
    if (pipe(fds) == 0) dup2(fds[0], 0);
    for (;;) sleep_ms(1000);
#elif defined(FORGER_PROBE)
    probe();
#endif
}

static const presenter_descriptor descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = "forger.real",
    .name = "Forger",
    .version = "1.0",
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index == 0 ? &descriptor : NULL;
}
