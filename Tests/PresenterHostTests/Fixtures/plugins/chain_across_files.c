/* A chain whose presenters sit in two files, the top one in the same file
 * as the bottom one: built with CHAIN_FILE_ONE, "fixture.chain-a" (the
 * base) and "fixture.chain-c" (extends chain-b); without it,
 * "fixture.chain-b" (extends chain-a). Each show logs its id and calls its
 * base's, so the log says which instance is below which. */
#include <stddef.h>
#include <stdio.h>
#include "presenter_abi.h"

typedef struct state {
    const presenter_host *host;
    presenter_context *ctx;
    const char *id;
} state;

static state instances[8];
static int count;

static presenter_status create(const presenter_descriptor *descriptor, const presenter_host *host,
                               presenter_context *ctx, void **instance) {
    if (count == 8) return PRESENTER_ERR_NO_MEMORY;
    instances[count] = (state){host, ctx, descriptor->id};
    *instance = &instances[count++];
    return PRESENTER_OK;
}

static void destroy(void *instance) { (void)instance; }

static presenter_status show(void *instance, presenter_view *view, const char *message,
                             const presenter_interactor *interactor) {
    state *self = instance;
    char line[96];
    snprintf(line, sizeof line, "show in %s", self->id);
    self->host->log(self->ctx, PRESENTER_LOG_INFO, line);
    return self->host->base_show(self->ctx, view, message, interactor);
}

#define CHAIN_PRESENTER(ID, EXTENDS)                        \
    {                                                       \
        .struct_size = sizeof(presenter_descriptor),        \
        .abi_major = PRESENTER_ABI_MAJOR,                   \
        .abi_minor = PRESENTER_ABI_MINOR,                   \
        .id = ID,                                           \
        .name = ID,                                         \
        .version = "1.0.0",                                 \
        .extends = EXTENDS,                                 \
        .capabilities = PRESENTER_CAP_MESSAGES,             \
        .create = create,                                   \
        .destroy = destroy,                                 \
        .show = show,                                       \
    }

static const presenter_descriptor descriptors[] = {
#ifdef CHAIN_FILE_ONE
    CHAIN_PRESENTER("fixture.chain-a", NULL),
    CHAIN_PRESENTER("fixture.chain-c", "fixture.chain-b"),
#else
    CHAIN_PRESENTER("fixture.chain-b", "fixture.chain-a"),
#endif
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}
