// A presenter written in C++17 against the C header, as a C++ author would:
// hooks with C linkage semantics through the header's extern "C", state in a
// class, no exception crossing the boundary.
#include <cstdint>
#include <new>
#include <string>

#include "presenter_abi.h"

namespace {

class Counter {
public:
    void shown(const char *message) {
        ++running_;
        message_ = message;
    }
    void hidden() { running_ = running_ > 0 ? running_ - 1 : 0; }

private:
    int running_ = 0;
    std::string message_;
};

presenter_status create(const presenter_descriptor *, const presenter_host *, presenter_context *,
                        void **instance) {
    *instance = new (std::nothrow) Counter();
    return *instance != nullptr ? PRESENTER_OK : PRESENTER_ERR_NO_MEMORY;
}

void destroy(void *instance) { delete static_cast<Counter *>(instance); }

presenter_status show(void *instance, presenter_view *, const char *message, const presenter_interactor *) {
    try {
        static_cast<Counter *>(instance)->shown(message);
        return PRESENTER_OK;
    } catch (...) {
        return PRESENTER_ERR_NO_MEMORY;
    }
}

presenter_status hide(void *instance, presenter_view *, const char *, const presenter_interactor *,
                      const presenter_failure *) {
    static_cast<Counter *>(instance)->hidden();
    return PRESENTER_OK;
}

presenter_descriptor make_descriptor() {
    presenter_descriptor d{};
    d.struct_size = sizeof(presenter_descriptor);
    d.abi_major = PRESENTER_ABI_MAJOR;
    d.abi_minor = PRESENTER_ABI_MINOR;
    d.id = "fixture.cxx";
    d.name = "C++ Fixture";
    d.version = "1.0.0";
    d.capabilities = PRESENTER_CAP_MESSAGES;
    d.create = create;
    d.destroy = destroy;
    d.show = show;
    d.hide = hide;
    return d;
}

const presenter_descriptor descriptor = make_descriptor();

}  // namespace

extern "C" const presenter_descriptor *presenter_plugin_descriptor(uint32_t index) {
    return index == 0 ? &descriptor : nullptr;
}
