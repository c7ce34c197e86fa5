/*
 * Two presenters that show how their view's last interactor ended, and what
 * stays once the host has left (PRESENTER_VIEW_FINAL, ABI 1.3); FinalLook
 * tests.
 *
 * fixture.final-look (ABI 1.3): while an interactor runs, "RUNNING <working
 * message>"; once it ended, "OUTCOME <message>" at every render, as a HUD
 * showing its outcome does. Its last render (PRESENTER_VIEW_FINAL) draws the
 * look that stays, which the hide message chooses:
 *   "blank"    nothing (the host writes its own line then);
 *   "rows"     "FINAL top" on row 0 and "FINAL third" on row 2 (row 1 blank);
 *   "crash"    abort(): a presenter that fails in its last render;
 *   otherwise  "FINAL <message>" on row 0.
 * fixture.final-look-1-2: the same code, declared for ABI 1.2, which has no
 * PRESENTER_VIEW_FINAL: the host must not give it the flag (it would draw
 * "FINAL ..."), nor keep its "OUTCOME ..." look, but write its own line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "presenter_abi.h"

typedef struct look {
    const presenter_host *host;
    char text[512];
    int running;
} look;

static presenter_status look_create(const presenter_descriptor *descriptor, const presenter_host *host,
                                    presenter_context *ctx, void **instance) {
    (void)descriptor;
    (void)ctx;
    look *self = calloc(1, sizeof *self);
    if (self == NULL) return PRESENTER_ERR_NO_MEMORY;
    self->host = host;
    *instance = self;
    return PRESENTER_OK;
}

static void look_destroy(void *instance) { free(instance); }

static presenter_status look_show(void *instance, presenter_view *view, const char *message,
                                  const presenter_interactor *interactor) {
    (void)view;
    (void)interactor;
    look *self = instance;
    self->running = 1;
    snprintf(self->text, sizeof self->text, "%s", message);
    return PRESENTER_OK;
}

static presenter_status look_hide(void *instance, presenter_view *view, const char *message,
                                  const presenter_interactor *interactor, const presenter_failure *failure) {
    (void)view;
    (void)interactor;
    (void)failure;
    look *self = instance;
    self->running = 0;
    snprintf(self->text, sizeof self->text, "%s", message ? message : "");
    return PRESENTER_OK;
}

static void look_render(void *instance, presenter_view *view, uint64_t now_ns) {
    (void)now_ns;
    look *self = instance;
    const presenter_host *host = self->host;
    uint32_t cols = 0, rows = 0;
    host->view_size(view, &cols, &rows);
    char line[600];
    if (host->view_flags(view) & PRESENTER_VIEW_FINAL) {
        if (strcmp(self->text, "blank") == 0) return;
        if (strcmp(self->text, "crash") == 0) abort();
        if (strcmp(self->text, "rows") == 0) {
            host->draw_text(view, 0, 0, cols, "FINAL top", PRESENTER_COLOR_DEFAULT);
            host->draw_text(view, 0, 2, cols, "FINAL third", PRESENTER_COLOR_DEFAULT);
            return;
        }
        snprintf(line, sizeof line, "FINAL %s", self->text);
    } else {
        snprintf(line, sizeof line, "%s %s", self->running ? "RUNNING" : "OUTCOME", self->text);
    }
    host->draw_text(view, 0, 0, cols, line, PRESENTER_COLOR_DEFAULT);
}

#define LOOK_DESCRIPTOR(name_, id_, minor_)                                    \
    static const presenter_descriptor name_ = {                                \
        .struct_size = sizeof(presenter_descriptor),                           \
        .abi_major = PRESENTER_ABI_MAJOR,                                      \
        .abi_minor = (minor_),                                                 \
        .id = (id_),                                                           \
        .name = "Final Look",                                                  \
        .version = "1.0.0",                                                    \
        .description = "Shows the outcome, and what stays once the host left.", \
        .license = "MIT",                                                      \
        .capabilities = PRESENTER_CAP_MESSAGES,                                \
        .create = look_create,                                                 \
        .destroy = look_destroy,                                               \
        .show = look_show,                                                     \
        .hide = look_hide,                                                     \
        .render = look_render,                                                 \
    }

LOOK_DESCRIPTOR(current_descriptor, "fixture.final-look", PRESENTER_ABI_MINOR);
LOOK_DESCRIPTOR(older_descriptor, "fixture.final-look-1-2", 2);

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    switch (index) {
    case 0: return &current_descriptor;
    case 1: return &older_descriptor;
    default: return NULL;
    }
}
