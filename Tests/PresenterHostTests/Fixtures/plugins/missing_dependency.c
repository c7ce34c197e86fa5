/* Links against libfixturedep.so, which the tests delete after building. */
#include <stddef.h>
#include "presenter_abi.h"

extern int fixture_dependency_value(void);

const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return fixture_dependency_value() == (int)index ? NULL : NULL;
}
