/* One library whose two descriptors have the same id: the first is used,
 * the second is reported as repeating it. */
#include <stddef.h>
#include "presenter_abi.h"

static const presenter_descriptor descriptors[] = {
    {
        .struct_size = sizeof(presenter_descriptor),
        .abi_major = PRESENTER_ABI_MAJOR,
        .abi_minor = PRESENTER_ABI_MINOR,
        .id = "fixture.twice",
        .name = "First",
        .version = "1.0.0",
    },
    {
        .struct_size = sizeof(presenter_descriptor),
        .abi_major = PRESENTER_ABI_MAJOR,
        .abi_minor = PRESENTER_ABI_MINOR,
        .id = "fixture.twice",
        .name = "Second",
        .version = "1.0.0",
    },
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index < sizeof descriptors / sizeof descriptors[0] ? &descriptors[index] : NULL;
}
