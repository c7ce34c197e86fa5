/* An entry point that returns no presenter at all. */
#include <stddef.h>
#include "presenter_abi.h"

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    (void)index;
    return NULL;
}
