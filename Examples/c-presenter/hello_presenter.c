/*
 * hello_presenter.c -- a complete minimal presenter plugin in C.
 *
 * While an action runs it draws one line centred on the view: a spinner and
 * the working message. When the action ends it draws nothing.
 *
 * Build (the folder given to -I holds presenter_abi.h):
 *   cc -shared -fPIC -std=c11 -Wall -Wextra -I ../../Sources/PresenterABI/include \
 *      -o libhello_presenter.so hello_presenter.c
 * Try:
 *   presenter-host --plugin-dir . --list -v
 *   presenter-host --plugin-dir . run --presenter example.hello -- sleep 2
 */
#include <stdlib.h>
#include <string.h>

#include "presenter_abi.h"

/* Frames of the spinner, for views that can show Unicode and for those that cannot. */
static const char *const unicode_frames[] = {"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};
static const char *const ascii_frames[] = {"|", "/", "-", "\\"};
#define FRAME_NS 100000000u /* 100 ms */

/* The state of one instance. The host creates one instance per view. */
typedef struct hello {
    const presenter_host *host; /* valid until destroy: kept */
    presenter_context *ctx;     /* valid until destroy: kept */
    char *message;              /* our copy of the working message */
    int running;                /* interactors shown and not yet hidden */
} hello;

static presenter_status hello_create(const presenter_descriptor *descriptor, const presenter_host *host,
                                     presenter_context *ctx, void **instance) {
    (void)descriptor;
    hello *self = calloc(1, sizeof *self);
    if (self == NULL) {
        host->set_error(ctx, "hello: out of memory");
        return PRESENTER_ERR_NO_MEMORY;
    }
    self->host = host;
    self->ctx = ctx;
    *instance = self;
    return PRESENTER_OK;
}

static void hello_destroy(void *instance) {
    hello *self = instance;
    free(self->message);
    free(self);
}

static presenter_status hello_show(void *instance, presenter_view *view, const char *message,
                                   const presenter_interactor *interactor) {
    (void)view;
    (void)interactor;
    hello *self = instance;
    /* The host owns message and it is valid only during this call: copy it. */
    size_t size = strlen(message) + 1;
    char *copy = malloc(size);
    if (copy == NULL) {
        self->host->set_error(self->ctx, "hello: out of memory");
        return PRESENTER_ERR_NO_MEMORY;
    }
    memcpy(copy, message, size);
    free(self->message);
    self->message = copy;
    self->running += 1;
    return PRESENTER_OK; /* the host renders after show: no need to ask for a frame */
}

static presenter_status hello_hide(void *instance, presenter_view *view, const char *message,
                                   const presenter_interactor *interactor, const presenter_failure *failure) {
    (void)view;
    (void)message;
    (void)interactor;
    hello *self = instance;
    if (failure != NULL) {
        self->host->log(self->ctx, PRESENTER_LOG_INFO, failure->message);
    }
    if (self->running > 0) {
        self->running -= 1;
    }
    return PRESENTER_OK;
}

static void hello_render(void *instance, presenter_view *view, uint64_t now_ns) {
    hello *self = instance;
    if (self->running == 0 || self->message == NULL) {
        return; /* the host cleared the view's overlay: drawing nothing hides us */
    }
    const presenter_host *host = self->host;
    int unicode = (host->view_flags(view) & PRESENTER_VIEW_UNICODE) != 0;
    const char *const *frames = unicode ? unicode_frames : ascii_frames;
    uint64_t count = unicode ? sizeof unicode_frames / sizeof *unicode_frames
                             : sizeof ascii_frames / sizeof *ascii_frames;
    const char *spinner = frames[(now_ns / FRAME_NS) % count];

    uint32_t cols = 0, rows = 0;
    host->view_size(view, &cols, &rows);
    uint32_t width = 2 + host->text_width(view, self->message);
    if (width > cols) {
        width = cols;
    }
    int32_t col = (int32_t)((cols - width) / 2);
    int32_t row = (int32_t)(rows / 2);
    host->draw_text(view, col, row, 1, spinner, PRESENTER_COLOR_CYAN | PRESENTER_STYLE_BOLD);
    if (width > 2) {
        host->draw_text(view, col + 2, row, width - 2, self->message, PRESENTER_COLOR_DEFAULT);
    }
    /* One-shot: ask again for the next spinner frame while running. */
    host->request_frame(self->ctx, now_ns + FRAME_NS);
}

/* Static storage: the host reads it for as long as the library is loaded. */
static const presenter_descriptor hello_descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = "example.hello",
    .name = "Hello",
    .version = "1.0.0",
    .description = "A spinner and the working message, centred on the view.",
    .author = "presenter-host examples",
    .license = "MIT",
    .extends = NULL,
    .capabilities = PRESENTER_CAP_MESSAGES,
    .create = hello_create,
    .destroy = hello_destroy,
    .show = hello_show,
    .hide = hello_hide,
    .progress = NULL, /* no determinate progress: the spinner runs on */
    .render = hello_render,
    .key = NULL,      /* keys are left to the view */
};

/* The same fields as data in the file (ABI 1.3): presenter-host lists the
 * plugin from this description without loading it, and refuses the file
 * where its code runs if the descriptor says otherwise (presenter-host check
 * says which field). hooks names the hooks that are not NULL. */
PRESENTER_DESCRIBE(hello_description,
    PRESENTER_FIELD(index, "0")
    PRESENTER_FIELD(id, "example.hello")
    PRESENTER_FIELD(name, "Hello")
    PRESENTER_FIELD(version, "1.0.0")
    PRESENTER_FIELD(description, "A spinner and the working message, centred on the view.")
    PRESENTER_FIELD(author, "presenter-host examples")
    PRESENTER_FIELD(license, "MIT")
    PRESENTER_FIELD(capabilities, "messages")
    PRESENTER_FIELD(hooks, "create,destroy,show,hide,render"));

/* The one exported function: presenter 0 is ours, there is no presenter 1. */
const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index == 0 ? &hello_descriptor : NULL;
}
