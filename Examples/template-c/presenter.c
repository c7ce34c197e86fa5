/*
 * presenter.c -- a template for a presenter plugin in C. Copy this folder,
 * rename the id, the name and NAME in the Makefile, and fill in the hooks.
 * docs/writing-a-presenter-in-c.md walks through every part.
 *
 * As it is, it draws the working message on the view's bottom row while
 * anything runs, with a spinner, and the outcome for a moment after; what
 * stays once the host has left is the outcome as one line.
 */
#include <stdlib.h>
#include <string.h>

#include <presenter_abi.h>

#define FRAME_NS 100000000u        /* 100 ms between spinner frames */
#define OUTCOME_NS 1500000000u     /* how long the outcome stays */

typedef struct presenter {
    const presenter_host *host;    /* valid until destroy */
    presenter_context *ctx;        /* valid until destroy */
    int running;                   /* interactors shown and not hidden yet */
    char message[256];             /* the latest working message, copied */
    char outcome[256];             /* the last success or failure message */
    int failed;
    uint64_t outcome_until;        /* 0: no outcome to show */
} presenter;

static void copy(char *to, size_t size, const char *from) {
    strncpy(to, from ? from : "", size - 1);
    to[size - 1] = '\0';
}

static presenter_status my_create(const presenter_descriptor *descriptor, const presenter_host *host,
                                  presenter_context *ctx, void **instance) {
    (void)descriptor;
    presenter *self = calloc(1, sizeof *self);
    if (self == NULL) {
        host->set_error(ctx, "out of memory");
        return PRESENTER_ERR_NO_MEMORY;
    }
    self->host = host;
    self->ctx = ctx;
    *instance = self;
    return PRESENTER_OK;
}

static void my_destroy(void *instance) { free(instance); }

static presenter_status my_show(void *instance, presenter_view *view, const char *message,
                                const presenter_interactor *interactor) {
    (void)view;
    (void)interactor;
    presenter *self = instance;
    copy(self->message, sizeof self->message, message); /* message is valid only during this call */
    self->running += 1;
    self->outcome[0] = '\0';
    self->outcome_until = 0;
    return PRESENTER_OK;
}

static presenter_status my_hide(void *instance, presenter_view *view, const char *message,
                                const presenter_interactor *interactor, const presenter_failure *failure) {
    (void)view;
    (void)interactor;
    presenter *self = instance;
    if (self->running > 0) self->running -= 1;
    if (self->running == 0 && message != NULL) {
        copy(self->outcome, sizeof self->outcome, message);
        self->failed = failure != NULL;
        self->outcome_until = self->host->now_ns(self->ctx) + OUTCOME_NS;
    }
    return PRESENTER_OK;
}

static void my_render(void *instance, presenter_view *view, uint64_t now_ns) {
    static const char *const frames[] = {"|", "/", "-", "\\"};
    presenter *self = instance;
    const presenter_host *host = self->host;
    uint32_t cols = 0, rows = 0;
    host->view_size(view, &cols, &rows);
    if (cols < 3 || rows == 0) return;
    if (host->view_flags(view) & PRESENTER_VIEW_FINAL) {
        /* The view's last render: what it draws stays on the terminal once the
         * host has left. The outcome as one line from the top; nothing (no
         * message) lets the host write its own line. */
        if (self->outcome[0] != '\0') {
            host->draw_text(view, 0, 0, 1, self->failed ? "x" : "+",
                            self->failed ? PRESENTER_COLOR_RED : PRESENTER_COLOR_GREEN);
            host->draw_text(view, 2, 0, cols - 2, self->outcome, PRESENTER_COLOR_DEFAULT);
        }
        return;
    }
    int32_t row = (int32_t)rows - 1;
    if (self->running > 0) {
        host->draw_text(view, 0, row, 1, frames[(now_ns / FRAME_NS) % 4], PRESENTER_COLOR_CYAN);
        host->draw_text(view, 2, row, cols - 2, self->message, PRESENTER_COLOR_DEFAULT);
        host->request_frame(self->ctx, now_ns + FRAME_NS); /* one-shot: ask again to animate */
    } else if (self->outcome_until > now_ns) {
        host->draw_text(view, 0, row, 1, self->failed ? "x" : "+",
                        self->failed ? PRESENTER_COLOR_RED : PRESENTER_COLOR_GREEN);
        host->draw_text(view, 2, row, cols - 2, self->outcome, PRESENTER_COLOR_DEFAULT);
        host->request_frame(self->ctx, self->outcome_until); /* the render that clears it */
    }
    /* Drawing nothing and asking for no frame: done, the host takes the view away. */
}

/* What presenter-host lists, written once: the descriptor below and the
 * description after it use these. */
#define MY_ID "my.presenter"       /* TODO: your id, [a-z0-9._-], e.g. "org.example.bar" */
#define MY_NAME "My Presenter"     /* TODO */
#define MY_VERSION "0.1.0"
#define MY_DESCRIPTION "A spinner and the working message on the bottom row."
#define MY_LICENSE "MIT"

static const presenter_descriptor my_descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = MY_ID,
    .name = MY_NAME,
    .version = MY_VERSION,
    .description = MY_DESCRIPTION,
    .author = NULL,
    .license = MY_LICENSE,
    .extends = NULL,               /* or "mbhud", and call host->base_* from your hooks */
    .capabilities = PRESENTER_CAP_MESSAGES,
    .create = my_create,
    .destroy = my_destroy,
    .show = my_show,
    .hide = my_hide,
    .progress = NULL,              /* add one to show interactor->progress */
    .render = my_render,
    .key = NULL,
};

/* The same fields as data in the file (ABI 1.3): presenter-host lists the
 * plugin from it without loading the library, and refuses the library where
 * its code runs if the descriptor says otherwise (presenter-host check says
 * which field). Keep capabilities and hooks (the hooks that are not NULL)
 * in step with the descriptor; add extends if you set it. */
PRESENTER_DESCRIBE(my_description,
    PRESENTER_FIELD(index, "0")
    PRESENTER_FIELD(id, MY_ID)
    PRESENTER_FIELD(name, MY_NAME)
    PRESENTER_FIELD(version, MY_VERSION)
    PRESENTER_FIELD(description, MY_DESCRIPTION)
    PRESENTER_FIELD(license, MY_LICENSE)
    PRESENTER_FIELD(capabilities, "messages")
    PRESENTER_FIELD(hooks, "create,destroy,show,hide,render"));

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index == 0 ? &my_descriptor : NULL;
}
