// bar_presenter.cpp -- a presenter written in C++17 against the C header.
//
// While actions run it draws one line on the view's bottom row: a bar of the
// latest progress fraction (or a bouncing block while it is unknown) and the
// working message. When the last action ends it draws nothing.
//
// What a C++ author watches for (docs/ABI.md, "C++ and Rust"):
//   - the header wraps itself in extern "C"; the entry point is defined
//     extern "C" too, so its name is not mangled;
//   - no exception crosses the boundary: every hook that can throw (here,
//     std::string and new) catches everything and returns a status;
//   - the descriptor is a constexpr aggregate: static storage, built at
//     compile time, so loading the library runs no constructor.
//
// Build (one command; the folder given to -I holds presenter_abi.h):
//   g++ -shared -fPIC -std=c++17 -Wall -Wextra -I ../../Sources/PresenterABI/include -o libbar_presenter.so bar_presenter.cpp
// Try:
//   presenter-host --plugin-dir . run --presenter example.cxx-bar -- sleep 2
#include <cstdint>
#include <map>
#include <new>
#include <string>

#include "presenter_abi.h"

namespace {

constexpr std::uint64_t frame_ns = 100000000; // 100 ms

// The state of one instance: the shown interactors by id, in show order.
struct Bar {
    const presenter_host *host;
    presenter_context *ctx;
    std::map<std::uint64_t, std::string> messages;
    double fraction = -1;
};

presenter_status create(const presenter_descriptor *, const presenter_host *host, presenter_context *ctx,
                        void **instance) {
    Bar *bar = new (std::nothrow) Bar{host, ctx, {}, -1};
    if (bar == nullptr) {
        host->set_error(ctx, "cxx-bar: out of memory");
        return PRESENTER_ERR_NO_MEMORY;
    }
    *instance = bar;
    return PRESENTER_OK;
}

void destroy(void *instance) { delete static_cast<Bar *>(instance); }

presenter_status show(void *instance, presenter_view *, const char *message, const presenter_interactor *interactor) {
    Bar *bar = static_cast<Bar *>(instance);
    try {
        bar->messages[interactor->id] = message; // the host's string lives only for this call: copy it
        bar->fraction = interactor->progress;
        return PRESENTER_OK;
    } catch (...) { // std::bad_alloc, or anything else: never across the boundary
        bar->host->set_error(bar->ctx, "cxx-bar: out of memory");
        return PRESENTER_ERR_NO_MEMORY;
    }
}

presenter_status hide(void *instance, presenter_view *, const char *, const presenter_interactor *interactor,
                      const presenter_failure *failure) {
    Bar *bar = static_cast<Bar *>(instance);
    if (failure != nullptr) {
        bar->host->log(bar->ctx, PRESENTER_LOG_INFO, failure->message);
    }
    bar->messages.erase(interactor->id);
    return PRESENTER_OK;
}

presenter_status progress(void *instance, presenter_view *, const presenter_interactor *interactor) {
    static_cast<Bar *>(instance)->fraction = interactor->progress;
    return PRESENTER_OK;
}

void render(void *instance, presenter_view *view, std::uint64_t now_ns) {
    Bar *bar = static_cast<Bar *>(instance);
    if (bar->messages.empty()) {
        return; // drawing nothing hides the presenter
    }
    const presenter_host *host = bar->host;
    std::uint32_t cols = 0, rows = 0;
    host->view_size(view, &cols, &rows);
    if (cols == 0 || rows == 0) {
        return;
    }
    const std::uint32_t width = 10;
    char cells[width + 3] = "[          ]";
    if (bar->fraction >= 0) {
        std::uint32_t filled = static_cast<std::uint32_t>(bar->fraction * width + 0.5);
        for (std::uint32_t i = 0; i < filled && i < width; ++i) cells[1 + i] = '#';
    } else {
        cells[1 + (now_ns / frame_ns) % width] = '#';
        host->request_frame(bar->ctx, now_ns + frame_ns); // one-shot: ask again to keep bouncing
    }
    const std::int32_t row = static_cast<std::int32_t>(rows - 1);
    std::uint32_t used = host->draw_text(view, 0, row, cols, cells, PRESENTER_COLOR_CYAN);
    if (used + 1 < cols) {
        host->draw_text(view, static_cast<std::int32_t>(used + 1), row, cols - used - 1,
                        bar->messages.begin()->second.c_str(), PRESENTER_COLOR_DEFAULT);
    }
}

// Static storage, constant-initialised: the host reads it while the library is loaded.
constexpr presenter_descriptor descriptor = {
    sizeof(presenter_descriptor), // struct_size
    PRESENTER_ABI_MAJOR,
    PRESENTER_ABI_MINOR,
    "example.cxx-bar",                                       // id
    "C++ Bar",                                               // name
    "1.0.0",                                                 // version
    "A progress bar and the working message, in C++.",       // description
    "presenter-host examples",                               // author
    "MIT",                                                   // license
    nullptr,                                                 // extends
    PRESENTER_CAP_MESSAGES | PRESENTER_CAP_DETERMINATE,      // capabilities
    create, destroy, show, hide, progress, render,
    nullptr, // key: keys are left to the view
};

// The same fields as data in the file (ABI 1.3): presenter-host lists the
// plugin from this description without loading it.
PRESENTER_DESCRIBE(description,
    PRESENTER_FIELD(index, "0")
    PRESENTER_FIELD(id, "example.cxx-bar")
    PRESENTER_FIELD(name, "C++ Bar")
    PRESENTER_FIELD(version, "1.0.0")
    PRESENTER_FIELD(description, "A progress bar and the working message, in C++.")
    PRESENTER_FIELD(author, "presenter-host examples")
    PRESENTER_FIELD(license, "MIT")
    PRESENTER_FIELD(capabilities, "messages,determinate")
    PRESENTER_FIELD(hooks, "create,destroy,show,hide,progress,render"));

} // namespace

extern "C" const presenter_descriptor *presenter_plugin_descriptor(std::uint32_t index) {
    return index == 0 ? &descriptor : nullptr;
}
