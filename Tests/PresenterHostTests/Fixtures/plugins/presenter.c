/*
 * A configurable one-presenter fixture. The tests compile it with -D flags
 * to produce a good plugin or one with a single defect in its descriptor
 * (see Tests/PresenterHostTests/Support/FixtureBuilder.swift).
 */
#ifdef FIXTURE_MARK
#define _POSIX_C_SOURCE 200809L
/* Loading leaves a mark: a constructor appends one line to the file
   $FIXTURE_MARKFILE names, so a test can tell whether any process loaded
   this library (the registry cache's warm start must not). */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
__attribute__((constructor)) static void fixture_mark(void) {
    const char *path = getenv("FIXTURE_MARKFILE");
    if (path == NULL) return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) return;
    (void)!write(fd, "loaded\n", 7);
    close(fd);
}
#endif
#include <stddef.h>
#include "presenter_abi.h"


#ifndef FIXTURE_ID
#define FIXTURE_ID "fixture.good"
#endif
#ifndef FIXTURE_NAME
#define FIXTURE_NAME "Good Fixture"
#endif
#ifndef FIXTURE_VERSION
#define FIXTURE_VERSION "1.0.0"
#endif
#ifndef FIXTURE_DESCRIPTION
#define FIXTURE_DESCRIPTION "A fixture presenter for the loader tests."
#endif
#ifndef FIXTURE_AUTHOR
#define FIXTURE_AUTHOR "presenter-host tests"
#endif
#ifndef FIXTURE_LICENSE
#define FIXTURE_LICENSE "MIT"
#endif
#ifndef FIXTURE_EXTENDS
#define FIXTURE_EXTENDS NULL
#endif
#ifndef FIXTURE_ABI_MAJOR
#define FIXTURE_ABI_MAJOR PRESENTER_ABI_MAJOR
#endif
#ifndef FIXTURE_ABI_MINOR
#define FIXTURE_ABI_MINOR PRESENTER_ABI_MINOR
#endif
#ifndef FIXTURE_STRUCT_SIZE
#define FIXTURE_STRUCT_SIZE sizeof(presenter_descriptor)
#endif
#ifndef FIXTURE_CAPABILITIES
#define FIXTURE_CAPABILITIES (PRESENTER_CAP_MESSAGES | PRESENTER_CAP_DETERMINATE)
#endif

static presenter_status show(void *instance, presenter_view *view, const char *message,
                             const presenter_interactor *interactor) {
    (void)instance; (void)view; (void)message; (void)interactor;
    return PRESENTER_OK;
}

static void render(void *instance, presenter_view *view, uint64_t now_ns) {
    (void)instance; (void)view; (void)now_ns;
}

static const presenter_descriptor descriptor = {
    .struct_size = FIXTURE_STRUCT_SIZE,
    .abi_major = FIXTURE_ABI_MAJOR,
    .abi_minor = FIXTURE_ABI_MINOR,
    .id = FIXTURE_ID,
    .name = FIXTURE_NAME,
    .version = FIXTURE_VERSION,
    .description = FIXTURE_DESCRIPTION,
    .author = FIXTURE_AUTHOR,
    .license = FIXTURE_LICENSE,
    .extends = FIXTURE_EXTENDS,
    .capabilities = FIXTURE_CAPABILITIES,
    .show = show,
    .render = render,
};

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index == 0 ? &descriptor : NULL;
}

#ifdef FIXTURE_DESCRIBED
/* The description the host reads from the file without loading it (ABI
   1.3), as a plugin author writes it. FIXTURE_DESCRIBED_NAME makes it
   disagree with the descriptor. */
#ifndef FIXTURE_DESCRIBED_NAME
#define FIXTURE_DESCRIBED_NAME FIXTURE_NAME
#endif
PRESENTER_DESCRIBE(fixture_description,
    PRESENTER_FIELD(index, "0")
    PRESENTER_FIELD(id, FIXTURE_ID)
    PRESENTER_FIELD(name, FIXTURE_DESCRIBED_NAME)
    PRESENTER_FIELD(version, FIXTURE_VERSION)
    PRESENTER_FIELD(description, FIXTURE_DESCRIPTION)
    PRESENTER_FIELD(author, FIXTURE_AUTHOR)
    PRESENTER_FIELD(license, FIXTURE_LICENSE)
    PRESENTER_FIELD(capabilities, "messages,determinate")
    PRESENTER_FIELD(hooks, "show,render"));
#endif

#ifdef FIXTURE_CONSTRUCTOR_ABORT
/* Loading the file kills the process that loads it: a host that lists it
   from its description never does. */
#include <stdlib.h>
__attribute__((constructor)) static void fixture_abort(void) { abort(); }
#endif

#ifdef FIXTURE_CONSTRUCTOR_HANG
/* Loading the file never ends: a host that lists it from its description
   never waits for it. */
#include <unistd.h>
__attribute__((constructor)) static void fixture_hang(void) {
    for (;;) sleep(1);
}
#endif
