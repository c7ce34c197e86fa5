/* One library holding two presenters: a base and one that extends it and
 * overrides only show, inheriting hide and render. */
#include <stddef.h>
#include "presenter_abi.h"

static presenter_status show(void *instance, presenter_view *view, const char *message,
                             const presenter_interactor *interactor) {
    (void)instance; (void)view; (void)message; (void)interactor;
    return PRESENTER_OK;
}

static presenter_status hide(void *instance, presenter_view *view, const char *message,
                             const presenter_interactor *interactor, const presenter_failure *failure) {
    (void)instance; (void)view; (void)message; (void)interactor; (void)failure;
    return PRESENTER_OK;
}

static void render(void *instance, presenter_view *view, uint64_t now_ns) {
    (void)instance; (void)view; (void)now_ns;
}

static const presenter_descriptor descriptors[] = {
    {
        .struct_size = sizeof(presenter_descriptor),
        .abi_major = PRESENTER_ABI_MAJOR,
        .abi_minor = PRESENTER_ABI_MINOR,
        .id = "fixture.base",
        .name = "Base Fixture",
        .version = "2.0.0",
        .capabilities = PRESENTER_CAP_MESSAGES,
        .show = show,
        .hide = hide,
        .render = render,
    },
    {
        .struct_size = sizeof(presenter_descriptor),
        .abi_major = PRESENTER_ABI_MAJOR,
        .abi_minor = PRESENTER_ABI_MINOR,
        .id = "fixture.derived",
        .name = "Derived Fixture",
        .version = "2.1.0",
        .extends = "fixture.base",
        .show = show,
    },
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}
