/*
 * Built twice, as fixture.local-one and fixture.local-two, each with its own
 * FIXTURE_LOCAL_NAME. Both define the same exported function,
 * fixture_local_name(), and take their presenter's name from it. With
 * RTLD_LOCAL each library's call binds to its own definition; with
 * RTLD_GLOBAL the second library would get the first one's name.
 */
#include <stddef.h>
#include "presenter_abi.h"

/* Exported (default visibility) and called through the PLT on purpose. */
const char *fixture_local_name(void) { return FIXTURE_LOCAL_NAME; }

static presenter_descriptor descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = FIXTURE_ID,
    .version = "1.0.0",
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    if (index != 0) {
        return NULL;
    }
    descriptor.name = fixture_local_name();
    return &descriptor;
}
