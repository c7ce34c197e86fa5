/*
 * Plugins that kill or hang whatever process loads them; the host must find
 * them with its scan helper and never load them itself. Compiled with one
 * -D flag each (see Tests/PresenterHostTests/Support/FixtureBuilder.swift):
 *   HOSTILE_ENTRY_POINTER   the entry point returns a pointer to nowhere (0x10)
 *   HOSTILE_STRING_POINTER  the descriptor's name points to nowhere (0x20)
 *   HOSTILE_CONSTRUCTOR_ABORT / _EXIT / _HANG   a library constructor calls
 *                           abort(), exit(3), or never returns
 */
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>
#include "presenter_abi.h"

#if defined(HOSTILE_CONSTRUCTOR_ABORT)
__attribute__((constructor)) static void hostile(void) { abort(); }
#elif defined(HOSTILE_CONSTRUCTOR_EXIT)
__attribute__((constructor)) static void hostile(void) { exit(3); }
#elif defined(HOSTILE_CONSTRUCTOR_HANG)
__attribute__((constructor)) static void hostile(void) {
    for (;;) {
        sleep(1);
    }
}
#endif

static const presenter_descriptor descriptor = {
    .struct_size = sizeof(presenter_descriptor),
    .abi_major = PRESENTER_ABI_MAJOR,
    .abi_minor = PRESENTER_ABI_MINOR,
    .id = "fixture.hostile",
#ifdef HOSTILE_STRING_POINTER
    .name = (const char *)0x20,
#else
    .name = "Hostile",
#endif
    .version = "1.0.0",
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    if (index != 0) {
        return NULL;
    }
#ifdef HOSTILE_ENTRY_POINTER
    return (const presenter_descriptor *)0x10;
#else
    return &descriptor;
#endif
}
