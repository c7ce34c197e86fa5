/* Calls a function no library defines: RTLD_NOW makes dlopen fail. */
#include <stddef.h>
#include "presenter_abi.h"

extern int fixture_symbol_nobody_defines(void);

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return fixture_symbol_nobody_defines() == (int)index ? NULL : NULL;
}
