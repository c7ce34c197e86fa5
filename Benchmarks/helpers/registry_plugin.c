/* A minimal presenter plugin for the registry figures: the bench compiles it
 * once and writes copies with the id patched (bench.p00000, bench.p00001, ...).
 * With -DBENCH_DESCRIBED it describes itself (ABI 1.3), as a plugin built
 * with this header should: the host then reads it without loading it. */
#include <stddef.h>
#include "presenter_abi.h"

static const presenter_descriptor descriptor = {
    .struct_size = sizeof(presenter_descriptor), .abi_major = PRESENTER_ABI_MAJOR, .abi_minor = PRESENTER_ABI_MINOR,
    .id = "bench.p00000", .name = "Bench p00000", .version = "1.0.0",
    .description = "A generated plugin for scripts/bench", .capabilities = PRESENTER_CAP_MESSAGES,
};

__attribute__((visibility("default"))) const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index == 0 ? &descriptor : NULL;
}

#ifdef BENCH_DESCRIBED
PRESENTER_DESCRIBE(description,
    PRESENTER_FIELD(index, "0")
    PRESENTER_FIELD(id, "bench.p00000")
    PRESENTER_FIELD(name, "Bench p00000")
    PRESENTER_FIELD(version, "1.0.0")
    PRESENTER_FIELD(description, "A generated plugin for scripts/bench")
    PRESENTER_FIELD(capabilities, "messages"));
#endif
