/*
 * presenter_abi.c -- ABI 1.0's layout, frozen.
 *
 * The ABI is the header alone (SwiftPM needs one source file in a C target).
 * This file pins the layout of every ABI 1.0 struct on LP64 Linux (x86-64,
 * AArch64), the layout every plugin built for 1.0 was compiled with: a field
 * moved, retyped or inserted before another fails the build here, before any
 * plugin can see it. A later minor adds fields after the last one below
 * (docs/ABI.md, "Compatibility"); they get asserts of their own, and the
 * sizes of whole structs are asserted only while the minor is 0.
 */
#include <stddef.h>

#include "presenter_abi.h"

#if defined(__LP64__)

/* The end of a field: where the next field may start at the earliest. */
#define FIELD_END(type, field) (offsetof(type, field) + sizeof(((type *)0)->field))
#define PIN(type, field, offset, size)                                                       \
    _Static_assert(offsetof(type, field) == (offset) && sizeof(((type *)0)->field) == (size), \
                   #type "." #field " is frozen at offset " #offset ", " #size " bytes (ABI 1.0)")

PIN(presenter_interactor, struct_size, 0, 4);
PIN(presenter_interactor, reserved, 4, 4);
PIN(presenter_interactor, type_name, 8, 8);
PIN(presenter_interactor, action, 16, 8);
PIN(presenter_interactor, id, 24, 8);
PIN(presenter_interactor, progress, 32, 8);
_Static_assert(FIELD_END(presenter_interactor, progress) == 40, "presenter_interactor 1.0 ends at byte 40");
#if PRESENTER_ABI_MINOR >= 1 /* Since 1.1 (the frozen 1.0 header, compiled with this file by a test, lacks it). */
PIN(presenter_interactor, message, 40, 8);
#endif
#if PRESENTER_ABI_MINOR >= 4 /* Since 1.4. */
PIN(presenter_interactor, started_ns, 48, 8);
PIN(presenter_interactor, done, 56, 8);
PIN(presenter_interactor, total, 64, 8);
PIN(presenter_interactor, rate, 72, 8);
PIN(presenter_interactor, eta_s, 80, 8);
#endif

PIN(presenter_failure, struct_size, 0, 4);
PIN(presenter_failure, reserved, 4, 4);
PIN(presenter_failure, code, 8, 8);
PIN(presenter_failure, domain, 16, 8);
PIN(presenter_failure, message, 24, 8);
_Static_assert(FIELD_END(presenter_failure, message) == 32, "presenter_failure 1.0 ends at byte 32");

PIN(presenter_host, struct_size, 0, 4);
PIN(presenter_host, abi_major, 4, 2);
PIN(presenter_host, abi_minor, 6, 2);
PIN(presenter_host, log, 8, 8);
PIN(presenter_host, set_error, 16, 8);
PIN(presenter_host, now_ns, 24, 8);
PIN(presenter_host, request_frame, 32, 8);
PIN(presenter_host, option, 40, 8);
PIN(presenter_host, base_show, 48, 8);
PIN(presenter_host, base_hide, 56, 8);
PIN(presenter_host, base_progress, 64, 8);
PIN(presenter_host, base_render, 72, 8);
PIN(presenter_host, base_key, 80, 8);
PIN(presenter_host, view_size, 88, 8);
PIN(presenter_host, view_flags, 96, 8);
PIN(presenter_host, text_width, 104, 8);
PIN(presenter_host, draw_text, 112, 8);
PIN(presenter_host, draw_box, 120, 8);
PIN(presenter_host, element, 128, 8);
_Static_assert(FIELD_END(presenter_host, element) == 136, "presenter_host 1.0 ends at byte 136");
#if PRESENTER_ABI_MINOR >= 2 /* Since 1.2. */
PIN(presenter_host, draw_cycle, 136, 8);
#endif

PIN(presenter_descriptor, struct_size, 0, 4);
PIN(presenter_descriptor, abi_major, 4, 2);
PIN(presenter_descriptor, abi_minor, 6, 2);
PIN(presenter_descriptor, id, 8, 8);
PIN(presenter_descriptor, name, 16, 8);
PIN(presenter_descriptor, version, 24, 8);
PIN(presenter_descriptor, description, 32, 8);
PIN(presenter_descriptor, author, 40, 8);
PIN(presenter_descriptor, license, 48, 8);
PIN(presenter_descriptor, extends, 56, 8);
PIN(presenter_descriptor, capabilities, 64, 8);
PIN(presenter_descriptor, create, 72, 8);
PIN(presenter_descriptor, destroy, 80, 8);
PIN(presenter_descriptor, show, 88, 8);
PIN(presenter_descriptor, hide, 96, 8);
PIN(presenter_descriptor, progress, 104, 8);
PIN(presenter_descriptor, render, 112, 8);
PIN(presenter_descriptor, key, 120, 8);
_Static_assert(FIELD_END(presenter_descriptor, key) == 128, "presenter_descriptor 1.0 ends at byte 128");

#if PRESENTER_ABI_MAJOR == 1 && PRESENTER_ABI_MINOR == 0
_Static_assert(sizeof(presenter_interactor) == 40, "sizeof(presenter_interactor) is 40 in ABI 1.0");
_Static_assert(sizeof(presenter_failure) == 32, "sizeof(presenter_failure) is 32 in ABI 1.0");
_Static_assert(sizeof(presenter_host) == 136, "sizeof(presenter_host) is 136 in ABI 1.0");
_Static_assert(sizeof(presenter_descriptor) == 128, "sizeof(presenter_descriptor) is 128 in ABI 1.0");
#endif

#endif /* __LP64__ */
