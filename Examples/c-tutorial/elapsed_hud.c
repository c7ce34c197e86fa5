/*
 * elapsed_hud.c -- the presenter docs/writing-a-presenter-in-c.md builds.
 *
 * It extends mbhud: mbhud draws its box with the spinner and the message,
 * and this presenter adds the seconds elapsed in the view's top right
 * corner while anything runs, and starts and stops the view's
 * "activity-indicator" element when it has one.
 *
 * Build against an installed presenter-host:
 *   cc -shared -fPIC -std=c11 -Wall -Wextra $(pkg-config --cflags presenter-abi) -o libelapsed_hud.so elapsed_hud.c
 */
#include <stdio.h>
#include <stdlib.h>

#include <presenter_abi.h>

#define SECOND_NS 1000000000u

/* One instance's state: the host creates one instance per view. */
typedef struct elapsed {
    const presenter_host *host; /* valid until destroy */
    presenter_context *ctx;     /* valid until destroy */
    int running;                /* interactors shown and not hidden yet */
    uint64_t started_ns;        /* when the first of them started */
} elapsed;

static presenter_status elapsed_create(const presenter_descriptor *descriptor, const presenter_host *host,
                                       presenter_context *ctx, void **instance) {
    (void)descriptor;
    elapsed *self = calloc(1, sizeof *self);
    if (self == NULL) {
        host->set_error(ctx, "elapsed: out of memory");
        return PRESENTER_ERR_NO_MEMORY;
    }
    self->host = host;
    self->ctx = ctx;
    *instance = self;
    return PRESENTER_OK;
}

static void elapsed_destroy(void *instance) { free(instance); }

static presenter_status elapsed_show(void *instance, presenter_view *view, const char *message,
                                     const presenter_interactor *interactor) {
    elapsed *self = instance;
    if (self->running++ == 0) {
        self->started_ns = self->host->now_ns(self->ctx);
        /* NOT_FOUND when the view has no such element: nothing to do then. */
        (void)self->host->element(view, "activity-indicator", PRESENTER_ELEMENT_START_ANIMATING);
    }
    /* The "super" call: mbhud shows its box. Its status is ours. */
    return self->host->base_show(self->ctx, view, message, interactor);
}

static presenter_status elapsed_hide(void *instance, presenter_view *view, const char *message,
                                     const presenter_interactor *interactor, const presenter_failure *failure) {
    elapsed *self = instance;
    if (self->running > 0 && --self->running == 0) {
        (void)self->host->element(view, "activity-indicator", PRESENTER_ELEMENT_STOP_ANIMATING);
    }
    return self->host->base_hide(self->ctx, view, message, interactor, failure);
}

static presenter_status elapsed_progress(void *instance, presenter_view *view, const presenter_interactor *interactor) {
    elapsed *self = instance;
    return self->host->base_progress(self->ctx, view, interactor);
}

static void elapsed_render(void *instance, presenter_view *view, uint64_t now_ns) {
    elapsed *self = instance;
    const presenter_host *host = self->host;
    host->base_render(self->ctx, view, now_ns); /* mbhud's box first (it asks for its own frames) */
    if (self->running == 0) {
        return;
    }
    char text[32];
    uint64_t seconds = (now_ns - self->started_ns) / SECOND_NS;
    snprintf(text, sizeof text, "%llus", (unsigned long long)seconds);
    uint32_t cols = 0, rows = 0;
    host->view_size(view, &cols, &rows);
    uint32_t width = host->text_width(view, text);
    if (rows > 0 && cols >= width) { /* draw only what fits inside the view */
        host->draw_text(view, (int32_t)(cols - width), 0, width, text, PRESENTER_STYLE_DIM);
    }
    /* One-shot: the next whole second, when the number changes. */
    host->request_frame(self->ctx, self->started_ns + (seconds + 1) * SECOND_NS);
}

/* Static storage: the host reads it for as long as the library is loaded. */
static const presenter_descriptor elapsed_descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = "tutorial.elapsed",
    .name = "Elapsed HUD",
    .version = "1.0.0",
    .description = "mbhud's box, and the seconds elapsed in the top right corner.",
    .author = "presenter-host tutorial",
    .license = "MIT",
    .extends = "mbhud",
    .capabilities = PRESENTER_CAP_MESSAGES | PRESENTER_CAP_DETERMINATE,
    .create = elapsed_create,
    .destroy = elapsed_destroy,
    .show = elapsed_show,
    .hide = elapsed_hide,
    .progress = elapsed_progress,
    .render = elapsed_render,
    .key = NULL, /* inherited: mbhud's key hook runs on mbhud's instance */
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index == 0 ? &elapsed_descriptor : NULL;
}

/* The same fields as data (ABI 1.3): what presenter-host lists without
 * loading the library. */
PRESENTER_DESCRIBE(elapsed_description,
    PRESENTER_FIELD(index, "0")
    PRESENTER_FIELD(id, "tutorial.elapsed")
    PRESENTER_FIELD(name, "Elapsed HUD")
    PRESENTER_FIELD(version, "1.0.0")
    PRESENTER_FIELD(description, "mbhud's box, and the seconds elapsed in the top right corner.")
    PRESENTER_FIELD(author, "presenter-host tutorial")
    PRESENTER_FIELD(license, "MIT")
    PRESENTER_FIELD(extends, "mbhud")
    PRESENTER_FIELD(capabilities, "messages,determinate")
    PRESENTER_FIELD(hooks, "create,destroy,show,hide,progress,render"));
