/*
 * presenter_1_0.c -- a plugin built against the frozen ABI 1.0 header (the
 * presenter_abi.h next to this file, never edited): every later host must
 * load it and run it (ABIFrozenTests). Do not change this file either: it
 * stands for a plugin compiled in the past.
 *
 * It uses every hook and every host service of 1.0: it logs "showing M" in
 * show, "progress P" in progress, "hidden M" in hide (with the failure's
 * domain and message) and "key K" in key; its render draws a box with the
 * message, the option "label" before it, and asks for a frame while shown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "presenter_abi.h"

typedef struct frozen {
    const presenter_host *host;
    presenter_context *ctx;
    char message[128];
    int shown;
} frozen;

static void say(frozen *self, const char *what, const char *text) {
    char line[256];
    snprintf(line, sizeof line, "%s %s", what, text);
    self->host->log(self->ctx, PRESENTER_LOG_INFO, line);
}

static presenter_status frozen_create(const presenter_descriptor *d, const presenter_host *host, presenter_context *ctx,
                                      void **instance) {
    (void)d;
    if (host->struct_size < sizeof(presenter_host) || host->abi_major != 1) {
        host->set_error(ctx, "frozen: host table too small");
        return PRESENTER_ERR_UNSUPPORTED;
    }
    frozen *self = calloc(1, sizeof *self);
    if (self == NULL) return PRESENTER_ERR_NO_MEMORY;
    self->host = host;
    self->ctx = ctx;
    *instance = self;
    return PRESENTER_OK;
}

static void frozen_destroy(void *instance) { free(instance); }

static presenter_status frozen_show(void *instance, presenter_view *view, const char *message,
                                    const presenter_interactor *interactor) {
    (void)view;
    frozen *self = instance;
    if (interactor->struct_size < sizeof(presenter_interactor)) return PRESENTER_ERR_INVALID;
    snprintf(self->message, sizeof self->message, "%s", message);
    self->shown += 1;
    say(self, "showing", message);
    return PRESENTER_OK;
}

static presenter_status frozen_hide(void *instance, presenter_view *view, const char *message,
                                    const presenter_interactor *interactor, const presenter_failure *failure) {
    (void)view;
    (void)interactor;
    frozen *self = instance;
    char text[256];
    snprintf(text, sizeof text, "%s%s%s%s%s", message ? message : "(none)", failure ? " " : "",
             failure ? failure->domain : "", failure ? ": " : "", failure ? failure->message : "");
    say(self, "hidden", text);
    if (self->shown > 0) self->shown -= 1;
    return PRESENTER_OK;
}

static presenter_status frozen_progress(void *instance, presenter_view *view, const presenter_interactor *interactor) {
    (void)view;
    char text[32];
    snprintf(text, sizeof text, "%.2f", interactor->progress);
    say(instance, "progress", text);
    return PRESENTER_OK;
}

static void frozen_render(void *instance, presenter_view *view, uint64_t now_ns) {
    frozen *self = instance;
    const presenter_host *host = self->host;
    if (self->shown == 0) return;
    uint32_t cols = 0, rows = 0;
    host->view_size(view, &cols, &rows);
    const char *label = host->option(self->ctx, "label");
    uint32_t width = host->text_width(view, self->message) + 4;
    if (width > cols) width = cols;
    if (rows >= 3 && width >= 2) {
        host->draw_box(view, 0, 0, width, 3, PRESENTER_STYLE_BOLD);
        host->draw_text(view, 2, 1, width > 4 ? width - 4 : 0, self->message, PRESENTER_COLOR_DEFAULT);
    } else {
        host->draw_text(view, 0, 0, cols, label ? label : self->message, PRESENTER_COLOR_DEFAULT);
    }
    (void)host->view_flags(view);
    (void)host->now_ns(self->ctx);
    host->request_frame(self->ctx, now_ns + 100000000u);
}

static int32_t frozen_key(void *instance, presenter_view *view, uint32_t key) {
    (void)view;
    char text[16];
    snprintf(text, sizeof text, "%u", key);
    say(instance, "key", text);
    return key == 27;
}

static const presenter_descriptor frozen_descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = "fixture.abi-1-0",
    .name = "ABI 1.0",
    .version = "1.0.0",
    .description = "Built against the frozen ABI 1.0 header.",
    .license = "MIT",
    .capabilities = PRESENTER_CAP_MESSAGES | PRESENTER_CAP_DETERMINATE,
    .create = frozen_create,
    .destroy = frozen_destroy,
    .show = frozen_show,
    .hide = frozen_hide,
    .progress = frozen_progress,
    .render = frozen_render,
    .key = frozen_key,
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index == 0 ? &frozen_descriptor : NULL;
}
