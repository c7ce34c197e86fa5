/*
 * Two presenters that log what ABI 1.4 tells them of an interactor's time
 * (TimingTests), through presenter_host.log, one line a hook:
 *
 * fixture.timing (ABI 1.4): "<hook> started=<started_ns> now=<now_ns>
 * progress=<p> done=<done> total=<total> rate=<rate> eta=<eta_s>", show,
 * progress and hide alike.
 * fixture.timing-1-3: the same code, declared for ABI 1.3, which knows no
 * field after message: it logs "<hook> size=<struct_size> progress=<p>"
 * and reads nothing past message, as a plugin built before 1.4 does.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "presenter_abi.h"

typedef struct timing {
    const presenter_host *host;
    presenter_context *ctx;
    int older;
} timing;

static const presenter_descriptor current_descriptor, older_descriptor;

static presenter_status timing_create(const presenter_descriptor *descriptor, const presenter_host *host,
                                      presenter_context *ctx, void **instance) {
    timing *self = calloc(1, sizeof *self);
    if (self == NULL) return PRESENTER_ERR_NO_MEMORY;
    self->host = host;
    self->ctx = ctx;
    self->older = descriptor == &older_descriptor;
    *instance = self;
    return PRESENTER_OK;
}

static void timing_destroy(void *instance) { free(instance); }

static void timing_log(timing *self, const char *hook, const presenter_interactor *interactor) {
    char line[400];
    if (self->older) {
        snprintf(line, sizeof line, "%s size=%" PRIu32 " progress=%.2f", hook, interactor->struct_size,
                 interactor->progress);
    } else {
        snprintf(line, sizeof line,
                 "%s started=%" PRIu64 " now=%" PRIu64 " progress=%.2f done=%.3f total=%.3f rate=%.6f eta=%.6f",
                 hook, interactor->started_ns, self->host->now_ns(self->ctx), interactor->progress,
                 interactor->done, interactor->total, interactor->rate, interactor->eta_s);
    }
    self->host->log(self->ctx, PRESENTER_LOG_INFO, line);
}

static presenter_status timing_show(void *instance, presenter_view *view, const char *message,
                                    const presenter_interactor *interactor) {
    (void)view;
    (void)message;
    timing_log(instance, "show", interactor);
    return PRESENTER_OK;
}

static presenter_status timing_hide(void *instance, presenter_view *view, const char *message,
                                    const presenter_interactor *interactor, const presenter_failure *failure) {
    (void)view;
    (void)message;
    (void)failure;
    timing_log(instance, "hide", interactor);
    return PRESENTER_OK;
}

static presenter_status timing_progress(void *instance, presenter_view *view,
                                        const presenter_interactor *interactor) {
    (void)view;
    timing_log(instance, "progress", interactor);
    return PRESENTER_OK;
}

#define TIMING_DESCRIPTOR(name_, id_, minor_)                        \
    static const presenter_descriptor name_ = {                      \
        .struct_size = sizeof(presenter_descriptor),                 \
        .abi_major = PRESENTER_ABI_MAJOR,                            \
        .abi_minor = (minor_),                                       \
        .id = (id_),                                                 \
        .name = "Timing",                                            \
        .version = "1.0.0",                                          \
        .description = "Logs the time the host gives an interactor.", \
        .license = "MIT",                                            \
        .capabilities = PRESENTER_CAP_DETERMINATE,                   \
        .create = timing_create,                                     \
        .destroy = timing_destroy,                                   \
        .show = timing_show,                                         \
        .hide = timing_hide,                                         \
        .progress = timing_progress,                                 \
    }

TIMING_DESCRIPTOR(current_descriptor, "fixture.timing", PRESENTER_ABI_MINOR);
TIMING_DESCRIPTOR(older_descriptor, "fixture.timing-1-3", 3);

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    switch (index) {
    case 0: return &current_descriptor;
    case 1: return &older_descriptor;
    default: return NULL;
    }
}
