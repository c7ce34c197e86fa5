/* A good presenter that breaks the rule "plugins MUST NOT write to stdout":
 * it prints from a constructor and from its entry point (buffered, so the
 * text is flushed only at exit). --list --json must stay valid JSON. */
#include <stdio.h>
#include <unistd.h>
#include "presenter_abi.h"

__attribute__((constructor)) static void announce(void) {
    static const char text[] = "noisy: hello from a constructor {\"not\": json\n";
    (void)!write(1, text, sizeof text - 1);
}

static const presenter_descriptor descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = "fixture.noisy",
    .name = "Noisy",
    .version = "1.0.0",
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    printf("noisy: entry point called with %u]\n", (unsigned)index);
    return index == 0 ? &descriptor : NULL;
}
