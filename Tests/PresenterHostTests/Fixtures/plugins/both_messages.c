/*
 * A presenter that shows, once an interactor ends, hide's message and the
 * failure's text after it: "MESSAGE - FAILURE" (or MESSAGE alone when the
 * failure's text is empty), as a presenter written from the header alone
 * would. HideMessageTests: a validation failure, whose text is the failure
 * message, is shown once, not twice.
 */
#include <stdio.h>
#include <stdlib.h>

#include "presenter_abi.h"

typedef struct both {
    const presenter_host *host;
    char outcome[512];
} both;

static presenter_status both_create(const presenter_descriptor *descriptor, const presenter_host *host,
                                    presenter_context *ctx, void **instance) {
    (void)descriptor;
    (void)ctx;
    both *self = calloc(1, sizeof *self);
    if (self == NULL) return PRESENTER_ERR_NO_MEMORY;
    self->host = host;
    *instance = self;
    return PRESENTER_OK;
}

static void both_destroy(void *instance) { free(instance); }

static presenter_status both_show(void *instance, presenter_view *view, const char *message,
                                  const presenter_interactor *interactor) {
    (void)view;
    (void)message;
    (void)interactor;
    ((both *)instance)->outcome[0] = '\0';
    return PRESENTER_OK;
}

static presenter_status both_hide(void *instance, presenter_view *view, const char *message,
                                  const presenter_interactor *interactor, const presenter_failure *failure) {
    (void)view;
    (void)interactor;
    both *self = instance;
    if (failure != NULL && failure->message[0] != '\0') {
        snprintf(self->outcome, sizeof self->outcome, "%s - %s", message ? message : "", failure->message);
    } else {
        snprintf(self->outcome, sizeof self->outcome, "%s", message ? message : "");
    }
    return PRESENTER_OK;
}

static void both_render(void *instance, presenter_view *view, uint64_t now_ns) {
    (void)now_ns;
    both *self = instance;
    uint32_t cols = 0, rows = 0;
    self->host->view_size(view, &cols, &rows);
    if (self->outcome[0] != '\0') self->host->draw_text(view, 0, 0, cols, self->outcome, PRESENTER_COLOR_DEFAULT);
}

static const presenter_descriptor both_descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = "fixture.both-messages",
    .name = "Both Messages",
    .version = "1.0.0",
    .description = "Shows hide's message and the failure's text after it.",
    .license = "MIT",
    .capabilities = PRESENTER_CAP_MESSAGES,
    .create = both_create,
    .destroy = both_destroy,
    .show = both_show,
    .hide = both_hide,
    .render = both_render,
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index == 0 ? &both_descriptor : NULL;
}
