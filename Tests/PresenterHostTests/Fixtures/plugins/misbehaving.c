/*
 * A presenter that misbehaves on purpose, as a careless or hostile third
 * party's might: the sandbox tests run `presenter-host run` with it and check
 * that the command, its output, its timing and the terminal come out as
 * they would without it.
 *
 * It behaves like a small HUD (a box with the working message, a spinner
 * frame every 100 ms while shown) until one hook does what the environment
 * variable FIXTURE_MISBEHAVE says, "WHAT:HOOK":
 *   WHAT  crash (SIGSEGV), abort, exit (_exit(3)), sleep (FIXTURE_SLEEP_MS,
 *         default 1000, then goes on), hang (never returns), spin (a busy
 *         loop), print (1 MiB to stdout and 1 MiB to stderr, then goes on),
 *         tty (writes to /dev/tty, then goes on), thread (starts a thread that
 *         calls host services with kept pointers for about a second, even
 *         after its instance is destroyed, then creates the file
 *         FIXTURE_THREAD_DONE names, when set: in-process only, as the
 *         sandbox lets a presenter process create no file; the hook goes
 *         on), alloc (allocates and touches memory without end), fail
 *         (returns PRESENTER_ERR_FAILED with a set_error message), linger
 *         (hide: keeps drawing for ever, as if the interactor still ran),
 *         fork (starts a process, which the sandbox stops), paint (render:
 *         while shown, fills the view 4,032 times with a box and 64 times
 *         with a text, and asks for the next frame at once), takekeys (key:
 *         logs "key <code>" through the host and uses every key, without
 *         ever dismissing the failure it holds)
 *   HOOK  create, destroy, show, hide, progress, render, key
 * A presenter process may write no file, so what the tests need to know
 * is logged through the host (the run's --log file, -v, the runtime's log):
 * FIXTURE_LOG_PID=1 makes create log "pid <N>", N as the host's /proc
 * numbers the process (in its own PID namespace getpid() is 1);
 * FIXTURE_LOG_WORLD=1 logs the world as create sees it, one
 * "world <key>=<value>" a line: fds (the open descriptors), libraries
 * (descriptors of loaded plugin files), stdin (where descriptor 0 leads),
 * leader (1 when the process leads its session), tty (the errno of opening
 * /dev/tty, 0 when it opened), backtrace (SWIFT_BACKTRACE), parent (the
 * parent's pid as getppid() gives it).
 * In an interactive view a hide with a failure, the last one shown, leaves
 * the box drawn with its message until a key comes, which the key hook uses
 * up (as mbhud holds a failure).
 * Every show logs "showing <message>" through the host. FIXTURE_SKIP=N lets
 * the first N calls of the hook behave. FIXTURE_SLOW_LOAD_MS makes the
 * library's constructor sleep, in the presenter process only (the one that
 * leads its session), so the scan and the host's own loading stay fast;
 * FIXTURE_LOAD_UNTIL makes it wait there until that file exists (a path
 * the presenter process can see only with its sandbox off).
 * Reading the environment in a hook is allowed; the constructor and the
 * entry point stay free of side effects, as the ABI asks.
 */
#define _GNU_SOURCE /* usleep, nanosleep with -std=c11 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "presenter_abi.h"

typedef struct state {
    const presenter_host *host;
    presenter_context *ctx;
    char message[256];
    int shown;
    /* A failure is shown until a key (an interactive view). */
    int holding;
} state;

__attribute__((constructor)) static void slow_load(void) {
    if (getsid(0) != getpid()) return;
    const char *ms = getenv("FIXTURE_SLOW_LOAD_MS");
    if (ms != NULL) {
        long wait = strtol(ms, NULL, 10);
        struct timespec time = {wait / 1000, (wait % 1000) * 1000000L};
        nanosleep(&time, NULL);
    }
    const char *until = getenv("FIXTURE_LOAD_UNTIL");
    struct timespec tick = {0, 10 * 1000000L};
    while (until != NULL && access(until, F_OK) != 0) nanosleep(&tick, NULL);
}

static int is(const char *what, const char *hook) {
    const char *setting = getenv("FIXTURE_MISBEHAVE");
    if (setting == NULL) return 0;
    size_t length = strlen(what);
    return strncmp(setting, what, length) == 0 && setting[length] == ':' && strcmp(setting + length + 1, hook) == 0;
}

/* True when this call of the hook is past the FIXTURE_SKIP first ones. */
static int due(void) {
    static long calls;
    const char *skip = getenv("FIXTURE_SKIP");
    return ++calls > (skip ? strtol(skip, NULL, 10) : 0);
}

/* What the thread keeps: the host's pointers, in memory of its own, so that
 * the instance's destroy (which frees the instance) never pulls its memory
 * from under it; only the host's pointers are kept past their hooks. */
typedef struct kept {
    const presenter_host *host;
    presenter_context *ctx;
} kept;

static void *service_caller(void *argument) {
    kept *self = argument;
    /* Host services from a thread of our own, outside any hook: the host must ignore them. */
    for (int i = 0; i < 2000; i++) {
        self->host->log(self->ctx, PRESENTER_LOG_ERROR, "from another thread");
        self->host->request_frame(self->ctx, 0);
        self->host->set_error(self->ctx, "from another thread");
        (void)self->host->option(self->ctx, "min-show-ms");
        (void)self->host->now_ns(self->ctx);
        usleep(500);
    }
    free(self);
    const char *done = getenv("FIXTURE_THREAD_DONE");
    if (done != NULL) {
        int fd = open(done, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (fd >= 0) close(fd);
    }
    return NULL;
}

static void print_a_lot(void) {
    static char line[1024];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    for (int i = 0; i < 1024; i++) {
        if (write(STDOUT_FILENO, line, sizeof line) < 0) break;
        if (write(STDERR_FILENO, line, sizeof line) < 0) break;
    }
    printf("buffered output that never reaches the command's stdout\n");
    fflush(stdout);
}

/* Does what FIXTURE_MISBEHAVE asks of `hook`; returns 1 when the hook must fail. */
static int misbehave(state *self, const char *hook) {
    const char *setting = getenv("FIXTURE_MISBEHAVE");
    const char *colon = setting ? strchr(setting, ':') : NULL;
    if (colon == NULL || strcmp(colon + 1, hook) != 0 || !due()) return 0;
    if (is("logflood", hook) && self != NULL) {
        for (;;) self->host->log(self->ctx, PRESENTER_LOG_DEBUG, "flooding the log");
    }
    if (is("fork", hook)) {
        pid_t child = fork();
        if (child == 0) {
            sleep(60);
            _exit(0);
        }
    }
    if (is("crash", hook)) {
        volatile int *nowhere = NULL;
        *nowhere = 1;
    }
    if (is("abort", hook)) abort();
    if (is("exit", hook)) _exit(3);
    if (is("sleep", hook)) {
        const char *ms = getenv("FIXTURE_SLEEP_MS");
        long wait = ms ? strtol(ms, NULL, 10) : 1000;
        struct timespec time = {wait / 1000, (wait % 1000) * 1000000L};
        nanosleep(&time, NULL);
    }
    if (is("hang", hook)) {
        for (;;) pause();
    }
    if (is("spin", hook)) {
        for (volatile unsigned long i = 0;; i++) {
        }
    }
    if (is("print", hook)) print_a_lot();
    if (is("tty", hook)) {
        int tty = open("/dev/tty", O_WRONLY | O_CLOEXEC);
        if (tty >= 0) {
            (void)write(tty, "WRITTEN-TO-THE-TTY\n", 19);
            close(tty);
        }
    }
    if (is("thread", hook) && self != NULL) {
        kept *copy = malloc(sizeof *copy);
        pthread_t thread;
        if (copy != NULL) {
            copy->host = self->host;
            copy->ctx = self->ctx;
            if (pthread_create(&thread, NULL, service_caller, copy) == 0) pthread_detach(thread); else free(copy);
        }
    }
    if (is("alloc", hook)) {
        for (;;) {
            char *block = malloc(64 << 20);
            if (block == NULL) continue;
            memset(block, 1, 64 << 20);
        }
    }
    if (is("fail", hook)) {
        if (self != NULL) self->host->set_error(self->ctx, "refusing on purpose");
        return 1;
    }
    return 0;
}

/* This process's number as the host's /proc gives it (/proc/self names it so). */
static int outer_pid(void) {
    char target[32] = "";
    ssize_t length = readlink("/proc/self", target, sizeof target - 1);
    if (length <= 0) return (int)getpid();
    target[length] = '\0';
    return atoi(target);
}

static void report(const presenter_host *host, presenter_context *ctx, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
static void report(const presenter_host *host, presenter_context *ctx, const char *format, ...) {
    char line[512];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(line, sizeof line, format, arguments);
    va_end(arguments);
    host->log(ctx, PRESENTER_LOG_INFO, line);
}

static void report_world(const presenter_host *host, presenter_context *ctx) {
    char fds[256] = "";
    size_t used = 0;
    /* The plugin files loaded (ld.so knows each by its /proc/.../fd/N
       name: a sealed copy, "memfd:presenter-plugin", in a presenter
       process) are counted apart. */
    int libraries = 0;
    for (int fd = 0; fd < 1024; fd++) {
        char link[64];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        char target[256];
        ssize_t length = readlink(link, target, sizeof target - 1);
        if (length < 0) continue;
        target[length] = '\0';
        if (strstr(target, "memfd:presenter-plugin") != NULL || (length > 3 && strcmp(target + length - 3, ".so") == 0)) {
            libraries++;
            continue;
        }
        used += (size_t)snprintf(fds + used, sizeof fds - used, used ? ",%d" : "%d", fd);
        if (used >= sizeof fds) break;
    }
    report(host, ctx, "world fds=%s", fds);
    report(host, ctx, "world libraries=%d", libraries);
    char target[256] = "";
    ssize_t length = readlink("/proc/self/fd/0", target, sizeof target - 1);
    if (length >= 0) target[length] = '\0';
    report(host, ctx, "world stdin=%s", target);
    report(host, ctx, "world leader=%d", getsid(0) == getpid());
    int tty = open("/dev/tty", O_RDWR | O_CLOEXEC);
    report(host, ctx, "world tty=%d", tty >= 0 ? 0 : errno);
    if (tty >= 0) close(tty);
    const char *backtrace = getenv("SWIFT_BACKTRACE");
    report(host, ctx, "world backtrace=%s", backtrace ? backtrace : "");
    report(host, ctx, "world parent=%d", (int)getppid());
}

static presenter_status m_create(const presenter_descriptor *descriptor, const presenter_host *host,
                                 presenter_context *ctx, void **instance) {
    (void)descriptor;
    if (getenv("FIXTURE_LOG_PID") != NULL) report(host, ctx, "pid %d", outer_pid());
    if (getenv("FIXTURE_LOG_WORLD") != NULL) report_world(host, ctx);
    state *self = calloc(1, sizeof *self);
    if (self == NULL) return PRESENTER_ERR_NO_MEMORY;
    self->host = host;
    self->ctx = ctx;
    *instance = self;
    if (misbehave(self, "create")) {
        host->set_error(ctx, "refusing on purpose");
        free(self);
        return PRESENTER_ERR_FAILED;
    }
    return PRESENTER_OK;
}

static void m_destroy(void *instance) {
    (void)misbehave(instance, "destroy");
    free(instance);
}

static presenter_status m_show(void *instance, presenter_view *view, const char *message,
                               const presenter_interactor *interactor) {
    (void)view;
    (void)interactor;
    state *self = instance;
    snprintf(self->message, sizeof self->message, "%s", message);
    self->shown++;
    char line[300];
    snprintf(line, sizeof line, "showing %s", message);
    self->host->log(self->ctx, PRESENTER_LOG_INFO, line);
    return misbehave(self, "show") ? PRESENTER_ERR_FAILED : PRESENTER_OK;
}

static presenter_status m_hide(void *instance, presenter_view *view, const char *message,
                               const presenter_interactor *interactor, const presenter_failure *failure) {
    (void)interactor;
    state *self = instance;
    if (self->shown > 0 && !is("linger", "hide")) self->shown--;
    if (failure != NULL && self->shown == 0 && (self->host->view_flags(view) & PRESENTER_VIEW_INTERACTIVE)) {
        snprintf(self->message, sizeof self->message, "%s", message ? message : "failed");
        self->holding = 1;
    }
    return misbehave(self, "hide") ? PRESENTER_ERR_FAILED : PRESENTER_OK;
}

static presenter_status m_progress(void *instance, presenter_view *view, const presenter_interactor *interactor) {
    (void)view;
    (void)interactor;
    return misbehave(instance, "progress") ? PRESENTER_ERR_FAILED : PRESENTER_OK;
}

/* Makes the host paint as much as a render can have it paint: 4,096
 * drawings, every 64th a text as wide as the view, the others boxes over the
 * whole view; then asks for the next frame at once. */
static void paint(state *self, presenter_view *view, uint64_t now_ns, uint32_t cols, uint32_t rows) {
    static char line[4096];
    uint32_t length = cols < sizeof line ? cols : sizeof line - 1;
    for (uint32_t i = 0; i < length; i++) line[i] = (char)('a' + i % 26);
    line[length] = '\0';
    for (uint32_t i = 0; i < 4096; i++) {
        if (i % 64 == 63) {
            self->host->draw_text(view, 0, (int32_t)(rows ? i / 64 % rows : 0), cols, line, PRESENTER_STYLE_BOLD);
        } else {
            self->host->draw_box(view, 0, 0, cols, rows, PRESENTER_COLOR_DEFAULT + i % 7);
        }
    }
    self->host->request_frame(self->ctx, now_ns);
}

static void m_render(void *instance, presenter_view *view, uint64_t now_ns) {
    state *self = instance;
    (void)misbehave(self, "render");
    if (self->shown == 0 && !self->holding) return;
    const presenter_host *host = self->host;
    uint32_t cols = 0, rows = 0;
    host->view_size(view, &cols, &rows);
    if (is("paint", "render") && self->shown > 0) {
        paint(self, view, now_ns, cols, rows);
        return;
    }
    uint32_t width = host->text_width(view, self->message) + 6;
    if (width > cols) width = cols;
    int32_t col = (int32_t)((cols - width) / 2);
    host->draw_box(view, col, 1, width, 3, PRESENTER_COLOR_DEFAULT);
    static const char *const frames[] = {"|", "/", "-", "\\"};
    const char *mark = self->shown > 0 ? frames[(now_ns / 100000000u) % 4] : "x";
    host->draw_text(view, col + 2, 2, 1, mark, PRESENTER_STYLE_BOLD);
    host->draw_text(view, col + 4, 2, width > 6 ? width - 6 : 0, self->message, PRESENTER_COLOR_DEFAULT);
    if (self->shown > 0) host->request_frame(self->ctx, now_ns + 100000000u);
}

static int32_t m_key(void *instance, presenter_view *view, uint32_t key) {
    (void)view;
    state *self = instance;
    if (is("takekeys", "key")) {
        char line[32];
        snprintf(line, sizeof line, "key %u", key);
        self->host->log(self->ctx, PRESENTER_LOG_INFO, line);
        return 1;
    }
    (void)misbehave(instance, "key");
    if (!self->holding) return 0;
    self->holding = 0;
    return 1;
}

static const presenter_descriptor descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = "fixture.misbehaving",
    .name = "Misbehaving",
    .version = "1.0.0",
    .description = "Misbehaves in the hook FIXTURE_MISBEHAVE names",
    .capabilities = PRESENTER_CAP_MESSAGES,
    .create = m_create,
    .destroy = m_destroy,
    .show = m_show,
    .hide = m_hide,
    .progress = m_progress,
    .render = m_render,
    .key = m_key,
};

/* Its description (ABI 1.3): the host lists it without loading it. */
PRESENTER_DESCRIBE(description,
    PRESENTER_FIELD(index, "0")
    PRESENTER_FIELD(id, "fixture.misbehaving")
    PRESENTER_FIELD(name, "Misbehaving")
    PRESENTER_FIELD(version, "1.0.0")
    PRESENTER_FIELD(description, "Misbehaves in the hook FIXTURE_MISBEHAVE names")
    PRESENTER_FIELD(capabilities, "messages")
    PRESENTER_FIELD(hooks, "create,destroy,show,hide,progress,render,key"));

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index == 0 ? &descriptor : NULL;
}
