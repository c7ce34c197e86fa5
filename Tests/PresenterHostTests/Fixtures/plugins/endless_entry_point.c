/* A buggy entry point that never returns NULL: the host must stop asking. */
#include "presenter_abi.h"

static const presenter_descriptor descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = "fixture.endless",
    .name = "Endless",
    .version = "1.0.0",
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    (void)index;
    return &descriptor;
}
