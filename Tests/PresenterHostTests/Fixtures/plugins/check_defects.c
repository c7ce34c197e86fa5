/*
 * A presenter with one defect that `presenter-host check` must find, chosen
 * with -D (see FixtureBuilder.swift):
 *   DEFECT_OUTSIDE        render draws text left of the view and a box
 *                         larger than it (drawing: WARN)
 *   DEFECT_DRAW_IN_SHOW   show calls draw_text, which works only in render
 *                         (services: FAIL)
 *   DEFECT_SKIP_BASE      extends mbhud and overrides show, hide and render
 *                         without calling the base's (base: FAIL)
 * Without one, a plain good presenter.
 */
#include <stdlib.h>

#include "presenter_abi.h"

#ifndef DEFECT_ID
#define DEFECT_ID "fixture.check-good"
#endif
#ifdef DEFECT_SKIP_BASE
#define DEFECT_EXTENDS "mbhud"
#define DEFECT_EXTENDS_FIELD PRESENTER_FIELD(extends, "mbhud")
#else
#define DEFECT_EXTENDS NULL
#define DEFECT_EXTENDS_FIELD
#endif

typedef struct state {
    const presenter_host *host;
    presenter_context *ctx;
    int shown;
} state;

static presenter_status create(const presenter_descriptor *d, const presenter_host *host, presenter_context *ctx,
                               void **instance) {
    (void)d;
    state *self = calloc(1, sizeof *self);
    if (self == NULL) return PRESENTER_ERR_NO_MEMORY;
    self->host = host;
    self->ctx = ctx;
    *instance = self;
    return PRESENTER_OK;
}

static void destroy(void *instance) { free(instance); }

static presenter_status show(void *instance, presenter_view *view, const char *message,
                             const presenter_interactor *interactor) {
    (void)message;
    (void)interactor;
    state *self = instance;
    self->shown += 1;
#ifdef DEFECT_DRAW_IN_SHOW
    self->host->draw_text(view, 0, 0, 10, "too early", PRESENTER_COLOR_DEFAULT);
#else
    (void)view;
#endif
    return PRESENTER_OK;
}

static presenter_status hide(void *instance, presenter_view *view, const char *message,
                             const presenter_interactor *interactor, const presenter_failure *failure) {
    (void)view;
    (void)message;
    (void)interactor;
    (void)failure;
    state *self = instance;
    if (self->shown > 0) self->shown -= 1;
    return PRESENTER_OK;
}

static void render(void *instance, presenter_view *view, uint64_t now_ns) {
    (void)now_ns;
    state *self = instance;
    if (self->shown == 0) return;
    uint32_t cols = 0, rows = 0;
    self->host->view_size(view, &cols, &rows);
#ifdef DEFECT_OUTSIDE
    self->host->draw_text(view, -2, 0, 40, "left of the view", PRESENTER_COLOR_DEFAULT);
    self->host->draw_box(view, 0, 0, cols + 4, rows + 4, PRESENTER_COLOR_DEFAULT);
#else
    self->host->draw_text(view, 0, 0, cols, "working", PRESENTER_COLOR_DEFAULT);
#endif
}

static const presenter_descriptor descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = DEFECT_ID,
    .name = "Check Defect",
    .version = "1.0.0",
    .description = "A presenter with the one defect its -D flag names.",
    .license = "MIT",
    .extends = DEFECT_EXTENDS,
    .capabilities = PRESENTER_CAP_MESSAGES,
    .create = create,
    .destroy = destroy,
    .show = show,
    .hide = hide,
    .render = render,
};

/* Its description (ABI 1.3): the host lists it without loading it. */
PRESENTER_DESCRIBE(description,
    PRESENTER_FIELD(index, "0")
    PRESENTER_FIELD(id, DEFECT_ID)
    PRESENTER_FIELD(name, "Check Defect")
    PRESENTER_FIELD(version, "1.0.0")
    PRESENTER_FIELD(description, "A presenter with the one defect its -D flag names.")
    PRESENTER_FIELD(license, "MIT")
    DEFECT_EXTENDS_FIELD
    PRESENTER_FIELD(capabilities, "messages")
    PRESENTER_FIELD(hooks, "create,destroy,show,hide,render"));

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index == 0 ? &descriptor : NULL;
}
