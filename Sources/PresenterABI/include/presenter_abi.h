/*
 * presenter_abi.h -- the presenter plugin ABI, version 1.4.
 *
 * This header is the whole contract between presenter-host and a presenter
 * plugin. A plugin is a shared object (.so) that exports one C function,
 * presenter_plugin_descriptor(), and links no symbol of the host: everything
 * the host offers reaches the plugin as a table of function pointers
 * (presenter_host). See docs/ABI.md for the model and a complete example.
 *
 * Conventions
 *   - Every name starts with presenter_ (types, functions) or PRESENTER_
 *     (constants).
 *   - Strings are NUL-terminated UTF-8.
 *   - "MUST", "MUST NOT" and "MAY" are meant as in RFC 2119.
 *   - A struct that may grow starts with uint32_t struct_size (the size the
 *     writer compiled) and grows only at its end. A reader MUST NOT read a
 *     field that lies past struct_size; such a field counts as absent (NULL
 *     or zero). Fields are never removed, reordered or retyped within a major.
 *
 * Versioning
 *   The ABI has a major and a minor version. The host refuses a plugin whose
 *   major differs from its own, and a plugin built for a newer minor than the
 *   host's. A plugin built for an older minor loads; the host then reads only
 *   the fields that plugin's struct_size says exist.
 *
 * Loading
 *   The host reads what a plugin holds from its description (since 1.3: ELF
 *   notes in the file, see "The description" below) without running any of
 *   its code, and runs its code only in the sandboxed presenter process,
 *   which opens it with dlopen(RTLD_NOW | RTLD_LOCAL) and never closes it.
 *   A plugin without a description is first loaded once in a sandboxed
 *   helper process (presenter-host scanning its plugin directories) to read
 *   its descriptors, so a file that crashes, exits or hangs while loading is
 *   reported instead of taking the host down. So library constructors and
 *   the entry point MAY run more than once, in several processes, on any
 *   thread: they MUST be cheap and free of side effects (no files, no
 *   output, no threads).
 *
 * The rule
 *   A presenter decides how progress looks, and nothing else. The host runs
 *   presenters in a presenter process of their own (the presenter-host binary
 *   in an internal mode): no terminal, stdin from /dev/null, stdout and
 *   stderr into the host's log, at most 2 GiB of address space, killed when
 *   the host ends. If a presenter crashes, exits, breaks this contract or
 *   does not return from a hook within the host's budget (250 ms unless the
 *   user says otherwise), the host kills that process and goes on without
 *   it: the work it was showing is never affected. This contains faults,
 *   not malice: the presenter process runs with the user's rights. (A
 *   program that embeds the host as a library may run presenters in its
 *   own process; it then trusts them.)
 *
 * Threading
 *   The host calls every hook of a view's presenter on one thread (the
 *   presenter thread), one call at a time, never concurrently. Host services
 *   MUST be called only from inside a hook, on the thread that called it;
 *   elsewhere they do nothing. A hook MUST NOT block (no I/O waits, no
 *   sleeps, no locks held by other threads): it delays every view's drawing,
 *   and one that takes longer than the budget ends the presenter. A hook
 *   MUST NOT keep a pointer it was given past the call unless the field says
 *   it may. Plugins MUST NOT write to stdout, stderr or the terminal: they
 *   draw on the view's canvas and log through presenter_host.log.
 *
 * Errors
 *   Hooks that can fail return a presenter_status. Before returning a status
 *   other than PRESENTER_OK, a hook MAY call presenter_host.set_error() with
 *   a message; the host copies it, so the plugin keeps ownership of its
 *   string. Nothing may be thrown or longjmp'd across the boundary.
 */
#ifndef PRESENTER_ABI_H
#define PRESENTER_ABI_H

#include <stddef.h> /* NULL: the entry point returns it after the last presenter */
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Versions and the entry point
 * ------------------------------------------------------------------------ */

/** The ABI major version this header describes. */
#define PRESENTER_ABI_MAJOR 1
/** The ABI minor version this header describes. */
#define PRESENTER_ABI_MINOR 4

/**
 * The name of the one function a plugin exports:
 *
 *   const presenter_descriptor *presenter_plugin_descriptor(uint32_t index);
 *
 * The host calls it with index 0, 1, 2, ... and stops at the first NULL, so
 * one library MAY hold several presenters. It MUST return at least one, and
 * NULL after the last (the host stops asking after 256 and refuses the
 * library). The returned descriptor, and every string and function it points
 * to, MUST stay valid and unchanged for as long as the library is loaded (in
 * practice: static storage). The host MAY call it from any thread, more than
 * once, and in a helper process that only checks the library loads (see
 * "Loading" above): it MUST be cheap, thread-safe and free of side effects.
 */
#define PRESENTER_ENTRY_SYMBOL "presenter_plugin_descriptor"

/* ------------------------------------------------------------------------
 * Status codes
 * ------------------------------------------------------------------------ */

/** The result of a hook or a host service. */
typedef int32_t presenter_status;

/** Success. */
#define PRESENTER_OK 0
/** A generic failure; the message set with set_error says what. */
#define PRESENTER_ERR_FAILED 1
/** An argument was invalid (NULL where not allowed, out of range, ...). */
#define PRESENTER_ERR_INVALID 2
/** A named thing (a view element, an option) does not exist. */
#define PRESENTER_ERR_NOT_FOUND 3
/** Memory could not be allocated. */
#define PRESENTER_ERR_NO_MEMORY 4
/** The operation is not supported by this host, view or presenter. */
#define PRESENTER_ERR_UNSUPPORTED 5

/* ------------------------------------------------------------------------
 * Opaque handles
 * ------------------------------------------------------------------------ */

/**
 * The host's handle for one presenter instance. Given to create(); valid
 * until the instance's destroy() returns. The plugin passes it back to the
 * host services that act on "this instance" (log, set_error, request_frame,
 * option, base_*). The plugin MAY keep it in its instance state.
 */
typedef struct presenter_context presenter_context;

/**
 * A view: the screen region a presenter draws on, with its named elements.
 * Given to show, hide, progress, render and key; valid only for that call.
 * The plugin MUST NOT keep it past the call.
 */
typedef struct presenter_view presenter_view;

/* ------------------------------------------------------------------------
 * Data given to hooks
 * ------------------------------------------------------------------------ */

/**
 * What the host knows of the interactor (the running operation) a show,
 * hide or progress call is about. Owned by the host; valid only for the call.
 */
typedef struct presenter_interactor {
    /** sizeof(presenter_interactor) as the host compiled it. */
    uint32_t struct_size;
    /** Reserved; zero. */
    uint32_t reserved;
    /** The interactor's type, e.g. "GetWebTitleInteractor". Never NULL. */
    const char *type_name;
    /** The action it performs, e.g. "get-title". Never NULL. */
    const char *action;
    /** Unique among the host process's interactors; never 0. A hide carries
     *  the id of the show it ends. */
    uint64_t id;
    /** Completed fraction in [0, 1], or a negative value when unknown. */
    double progress;
    /** Since 1.1. The working message the work reported since show (for
     *  `run`, a progress line with a message), which replaces the one show
     *  got; NULL while show's message stands. Given to progress (and to
     *  hide, for the record). Read it only when struct_size covers it. */
    const char *message;
    /* Since 1.4: the work's time, which the host measures for every
     * presenter (docs/ABI.md, "Time and rate"). Read each only when
     * struct_size covers it; a negative value means unknown. */
    /** Since 1.4. When the interactor's show began, on the clock of now_ns
     *  (never 0 from a 1.4 host): the elapsed time is now_ns() - started_ns. */
    uint64_t started_ns;
    /** Since 1.4. Completed units when the work reports counts (for `run`,
     *  a progress line `42/100` gives 42), negative when unknown. */
    double done;
    /** Since 1.4. The total units of those counts (100), negative when unknown. */
    double total;
    /** Since 1.4. The smoothed rate: units of done per second when counts
     *  are known, else of the fraction (0.01 is 1 % a second); negative
     *  until the host has two reports some time apart. An exponentially
     *  weighted average over about 15 s, as indicatif's. */
    double rate;
    /** Since 1.4. Smoothed seconds left as of this call, from the rate and
     *  what is left; negative when unknown (no determinate progress, or too
     *  few reports yet). */
    double eta_s;
} presenter_interactor;

/**
 * Why an interactor failed; given to hide, NULL when it succeeded.
 * Owned by the host; valid only for the call.
 */
typedef struct presenter_failure {
    /** sizeof(presenter_failure) as the host compiled it. */
    uint32_t struct_size;
    /** Reserved; zero. */
    uint32_t reserved;
    /** The error code (for a command: its exit status). */
    int64_t code;
    /** The error domain, e.g. "validation", "http", "process". Never NULL. */
    const char *domain;
    /** A human-readable description. Never NULL; MAY be empty. It is ""
     *  when hide's message already says it (a validation failure, whose
     *  text is the failure message): show message, and this after it when
     *  it is not empty, and nothing is said twice. */
    const char *message;
} presenter_failure;

/* ------------------------------------------------------------------------
 * Drawing
 * ------------------------------------------------------------------------ */

/** Style bits for draw_text and draw_box: a colour in the low 4 bits... */
#define PRESENTER_COLOR_DEFAULT 0u
#define PRESENTER_COLOR_RED     1u
#define PRESENTER_COLOR_GREEN   2u
#define PRESENTER_COLOR_YELLOW  3u
#define PRESENTER_COLOR_BLUE    4u
#define PRESENTER_COLOR_MAGENTA 5u
#define PRESENTER_COLOR_CYAN    6u
/** ...and attributes above them. The host drops colour where the user
 *  asked for none (NO_COLOR, --color=never); attributes stay. */
#define PRESENTER_STYLE_BOLD    0x10u
#define PRESENTER_STYLE_DIM     0x20u
#define PRESENTER_STYLE_REVERSE 0x40u

/** view_flags: the view can show Unicode (else use ASCII only). */
#define PRESENTER_VIEW_UNICODE     0x1u
/** view_flags: a user can press keys in this view (else a key never comes);
 *  the key hook still gets one only while a failure it shows waits for it. */
#define PRESENTER_VIEW_INTERACTIVE 0x2u
/** view_flags: frames reach a screen (else the host prints plain lines and
 *  drawing is not shown; presenter-host runs no presenter then, a program
 *  that links the host as a library may, and presenters work the same). */
#define PRESENTER_VIEW_ANIMATED    0x4u
/**
 * view_flags: Since 1.3. This render is the view's last, and what it draws
 * stays on the screen after the host has left (in a terminal: in its
 * scrollback), as a line a program printed. The host gives it to one render
 * once the work has ended with an outcome to keep (a success or failure
 * message, or a failure): draw the outcome's final look in as few rows as it
 * needs, from the top row (mbhud draws one line, a check mark and "Built",
 * or a cross and "Build failed: exit status 2", not its box), in a view of
 * the size the frames before had (one column at least) with the usual flags
 * besides this one. The host keeps the rows from the top through the last
 * one drawn on (a draw_cycle as the text due at the render's time), leaves
 * the cursor on the line below them, and calls no render again (a frame
 * asked for during this one never comes). Draw nothing to have the host
 * write its own line instead: a mark and the message, and for a failure ": "
 * and its reason (ASCII marks without PRESENTER_VIEW_UNICODE). Only a view
 * whose presenter and every presenter it extends declare 1.3 or later gets
 * it; for an older one, and for a presenter that failed, the host writes its
 * own line.
 */
#define PRESENTER_VIEW_FINAL       0x8u

/**
 * The key hook's codes. A key with a character is its Unicode code point:
 * Enter 13, Escape 27, Tab 9, Backspace 127, Ctrl and a letter 1 to 26
 * (Ctrl-A is 1). Keys without one take the code points of Apple's function
 * keys in the Private Use Area (what the original's platform gives its
 * views); Shift-Tab, which has none there, takes the last of that range.
 * Values only: they describe what hosts send, and change no structure.
 */
#define PRESENTER_KEY_ENTER     13u
#define PRESENTER_KEY_ESCAPE    27u
#define PRESENTER_KEY_UP        0xF700u
#define PRESENTER_KEY_DOWN      0xF701u
#define PRESENTER_KEY_LEFT      0xF702u
#define PRESENTER_KEY_RIGHT     0xF703u
#define PRESENTER_KEY_DELETE    0xF728u
#define PRESENTER_KEY_HOME      0xF729u
#define PRESENTER_KEY_END       0xF72Bu
#define PRESENTER_KEY_BACK_TAB  0xF7FFu

/** element operations, for presenter_host.element. */
#define PRESENTER_ELEMENT_HIDE            1
#define PRESENTER_ELEMENT_SHOW            2
#define PRESENTER_ELEMENT_START_ANIMATING 3
#define PRESENTER_ELEMENT_STOP_ANIMATING  4

/** Log levels, for presenter_host.log. */
#define PRESENTER_LOG_DEBUG   0
#define PRESENTER_LOG_INFO    1
#define PRESENTER_LOG_WARNING 2
#define PRESENTER_LOG_ERROR   3

/* ------------------------------------------------------------------------
 * Host services
 * ------------------------------------------------------------------------ */

/**
 * The host's services, given to create(). The table is owned by the host
 * and stays valid until the instance's destroy() returns; the plugin MAY keep
 * the pointer. Every function in it MUST be called only from inside a hook,
 * on the thread that called the hook. A plugin built for a newer minor MUST
 * check struct_size before calling a function that minor added.
 */
typedef struct presenter_host {
    /** sizeof(presenter_host) as the host compiled it. */
    uint32_t struct_size;
    /** The host's ABI major version. */
    uint16_t abi_major;
    /** The host's ABI minor version. */
    uint16_t abi_minor;

    /* --- this instance ------------------------------------------------- */

    /** Writes message to the host's log: `presenter-host run` shows it with
     *  --verbose (-v) and writes it to the file of --log. The host copies
     *  message (at most its first 4096 bytes). */
    void (*log)(presenter_context *ctx, int32_t level, const char *message);
    /** Sets the message that goes with the failing status the current hook
     *  is about to return. The host copies message; the last call wins. */
    void (*set_error)(presenter_context *ctx, const char *message);
    /** A monotonic clock in nanoseconds, the clock of request_frame. */
    uint64_t (*now_ns)(presenter_context *ctx);
    /** Asks the host to call render at (or soon after) at_ns on the clock of
     *  now_ns; an earlier time than now means "as soon as possible". One-shot:
     *  ask again from render to keep animating. The host caps the frame rate
     *  and never renders while nobody asked, so a presenter that stops asking
     *  costs nothing. The host always renders after show, hide, progress and
     *  key, so those need not ask. */
    void (*request_frame)(presenter_context *ctx, uint64_t at_ns);
    /** The value of a configuration option for this presenter, such as
     *  "min-show-ms", "grace-ms", "failure-hold-ms" or "outcome-limit-ms"
     *  (docs/ABI.md lists the ones the host sets), or NULL when unset. The string is owned by the
     *  host and valid until destroy. A value other than the host's own keys
     *  is user text (`--option`, the settings file): at most 1024 bytes of
     *  UTF-8 with no control or bidi character, otherwise anything; parse it
     *  strictly and fall back to your default. */
    const char *(*option)(presenter_context *ctx, const char *key);

    /* --- the base presenter (for a presenter that extends another) ------ */

    /** Calls the base presenter's show on the base's instance: the "super"
     *  call. Returns PRESENTER_OK and does nothing when there is no base or
     *  the base has no show. Same arguments as presenter_descriptor.show. */
    presenter_status (*base_show)(presenter_context *ctx, presenter_view *view,
                                  const char *message,
                                  const presenter_interactor *interactor);
    /** Calls the base presenter's hide; see base_show. */
    presenter_status (*base_hide)(presenter_context *ctx, presenter_view *view,
                                  const char *message,
                                  const presenter_interactor *interactor,
                                  const presenter_failure *failure);
    /** Calls the base presenter's progress; see base_show. */
    presenter_status (*base_progress)(presenter_context *ctx, presenter_view *view,
                                      const presenter_interactor *interactor);
    /** Calls the base presenter's render; see base_show. */
    void (*base_render)(presenter_context *ctx, presenter_view *view, uint64_t now_ns);
    /** Calls the base presenter's key; returns what it returned, or 0. */
    int32_t (*base_key)(presenter_context *ctx, presenter_view *view, uint32_t key);

    /* --- the view -------------------------------------------------------- */

    /** The view's size in cells (columns, rows). */
    void (*view_size)(presenter_view *view, uint32_t *cols, uint32_t *rows);
    /** PRESENTER_VIEW_* bits describing the view. */
    uint32_t (*view_flags)(presenter_view *view);
    /** The width of utf8 in display columns as this view shows it (wide
     *  CJK and emoji count two, combining marks zero), as draw_text would
     *  draw it: the characters it drops count zero. */
    uint32_t (*text_width)(presenter_view *view, const char *utf8);
    /** Draws utf8 at (col, row), using at most max_cols columns: longer text
     *  is cut and ends with an ellipsis. Cells outside the view are clipped.
     *  Control characters (C0, DEL, C1), bidirectional formatting characters
     *  and the line and paragraph separators (U+2028, U+2029) are dropped:
     *  the host places every cell itself. A character (grapheme cluster)
     *  of more than 31 bytes of UTF-8 keeps the code points that fit: its
     *  base and first marks (every common emoji sequence fits whole).
     *  Returns the number of columns drawn. Only inside render; elsewhere it
     *  draws nothing and returns 0. */
    uint32_t (*draw_text)(presenter_view *view, int32_t col, int32_t row,
                          uint32_t max_cols, const char *utf8, uint32_t style);
    /** Draws a bordered box with its top-left corner at (col, row), cols by
     *  rows cells (each at least 2), and blanks its inside. Only inside
     *  render, like draw_text. */
    void (*draw_box)(presenter_view *view, int32_t col, int32_t row,
                     uint32_t cols, uint32_t rows, uint32_t style);
    /** Applies a PRESENTER_ELEMENT_* operation to the view's element called
     *  name (e.g. "get-title-button", "activity-indicator"). Returns
     *  PRESENTER_ERR_NOT_FOUND when the view has no such element. MAY be
     *  called from any hook. */
    presenter_status (*element)(presenter_view *view, const char *name, int32_t op);

    /* --- added by minors: check struct_size covers one before calling it - */

    /** Since 1.2. Draws an animation that the host plays by itself: at each frame's
     *  time t, frames[((t - start_ns) / interval_ns) % count] (frames[0]
     *  before start_ns) at (col, row) in at most max_cols columns, each
     *  text drawn as draw_text draws it. The host shows the next text when
     *  it is due, without calling render, until the next render replaces
     *  the drawing: a spinner drawn so costs its presenter nothing between
     *  renders, and needs no request_frame to turn. count is 1 to
     *  PRESENTER_CYCLE_MAX_FRAMES and interval_ns at least
     *  PRESENTER_CYCLE_MIN_INTERVAL_NS, and no frame is NULL; otherwise
     *  nothing is drawn. The host caps the frame rate as for request_frame.
     *  Returns the columns the widest text takes. Only inside render, like
     *  draw_text. A 1.1 host lacks it (and refuses a plugin that declares
     *  1.2): a plugin that declares an older minor to load there checks
     *  struct_size, and without the service draws the current text with
     *  draw_text and asks for a frame when it changes. */
    uint32_t (*draw_cycle)(presenter_view *view, int32_t col, int32_t row, uint32_t max_cols,
                           const char *const *frames, uint32_t count, uint64_t start_ns,
                           uint64_t interval_ns, uint32_t style);
} presenter_host;

/** Since 1.2. draw_cycle: the most texts one animation has. */
#define PRESENTER_CYCLE_MAX_FRAMES 64
/** Since 1.2. draw_cycle: the shortest time a text shows (1 ms). */
#define PRESENTER_CYCLE_MIN_INTERVAL_NS 1000000u

/* ------------------------------------------------------------------------
 * The descriptor
 * ------------------------------------------------------------------------ */

/** capabilities: the presenter shows the messages given to show and hide. */
#define PRESENTER_CAP_MESSAGES    0x1u
/** capabilities: the presenter shows a determinate progress fraction. */
#define PRESENTER_CAP_DETERMINATE 0x2u
/** Since 1.4. capabilities: the presenter draws in one row; a host that
 *  draws a region gives it a view of one row instead of its usual height.
 *  A host older than 1.4 refuses a plugin built for 1.4, as it refuses any
 *  newer minor. In a chain, the presenter the view chose decides (the one
 *  that extends another, not its base). */
#define PRESENTER_CAP_ONE_ROW     0x4u
/* Other bits are reserved: a plugin MUST NOT set them; the host ignores the
 * ones it does not know (--list shows them in hex). */

/** The longest id, in bytes, without the terminating NUL. */
#define PRESENTER_ID_MAX 64

/**
 * One presenter. Returned by presenter_plugin_descriptor(); static storage.
 *
 * The host checks every field before it uses the presenter, and refuses it,
 * with a one-line reason naming the file, when one breaks a rule below. Every
 * string MUST be valid UTF-8 without control characters (C0, DEL, C1) or
 * bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A to
 * U+202E, U+2066 to U+2069, and the separators U+2028, U+2029): the host
 * prints them on one terminal line. An optional string that is "" counts as
 * absent (NULL). Byte limits exclude the terminating NUL.
 *
 * Every hook MAY be NULL. A NULL hook inherits the hook of the presenter
 * named by `extends` (called on the base's own instance), or does nothing
 * when there is none.
 *
 * Lifecycle of an instance: create, then any number of show / hide /
 * progress / render / key calls, then destroy. The host creates one instance
 * per view that uses the presenter. If create succeeded, the host MUST call
 * destroy exactly once. When the presenter extends another, the host first
 * creates the base's instance (its own context), destroys it after this
 * one, and routes base_* calls to it.
 */
typedef struct presenter_descriptor {
    /** sizeof(presenter_descriptor) as the plugin compiled it. MUST be
     *  first. The host refuses a size smaller than ABI 1.0's descriptor, and
     *  one over 64 KiB (corrupt: no descriptor grows that large). */
    uint32_t struct_size;
    /** MUST be PRESENTER_ABI_MAJOR of the header the plugin was built with.
     *  The host refuses any major other than its own. */
    uint16_t abi_major;
    /** MUST be PRESENTER_ABI_MINOR of the header the plugin was built with.
     *  The host refuses a minor newer than its own, and MAY load an older
     *  one (it then reads only the fields within struct_size). */
    uint16_t abi_minor;

    /** Unique id: 1 to PRESENTER_ID_MAX bytes of [a-z0-9._-]. Required.
     *  Users choose presenters by it (run --presenter ID). When two
     *  presenters that the host can use have the same id, the first in the
     *  search path wins and the other is reported as shadowed. */
    const char *id;
    /** Display name, e.g. "MB HUD". Required, non-empty, at most 128 bytes. */
    const char *name;
    /** The presenter's own version, e.g. "1.2.0". Required, non-empty, at
     *  most 64 bytes. */
    const char *version;
    /** One line saying what it shows. MAY be NULL; at most 512 bytes. */
    const char *description;
    /** MAY be NULL; at most 256 bytes. */
    const char *author;
    /** An SPDX licence id, e.g. "MIT". MAY be NULL; at most 128 bytes. */
    const char *license;
    /** The id of the presenter this one extends, or NULL. Same rules as id.
     *  The host refuses this presenter when no usable presenter has that id
     *  (the base is missing or was itself refused) or the chain loops. */
    const char *extends;
    /** PRESENTER_CAP_* bits; MAY be 0. Unknown bits are ignored. */
    uint64_t capabilities;

    /**
     * Creates an instance for one view. descriptor is this descriptor (so
     * one create function MAY serve several presenters). host and ctx stay
     * valid until destroy. Sets *instance to the plugin's state (MAY be NULL
     * if it keeps none). Returns PRESENTER_OK, or an error (and the host then
     * never calls another hook of this instance, nor destroy).
     */
    presenter_status (*create)(const struct presenter_descriptor *descriptor,
                               const presenter_host *host, presenter_context *ctx,
                               void **instance);
    /** Frees an instance. Called once, last. MUST NOT fail. */
    void (*destroy)(void *instance);

    /**
     * An interactor started. message is the working message: "" means show
     * the indicator with no text; the host does not call show at all when
     * the action has no working message. Called at most once per interactor.
     */
    presenter_status (*show)(void *instance, presenter_view *view,
                             const char *message,
                             const presenter_interactor *interactor);
    /**
     * An interactor ended: exactly once per interactor that was shown, never
     * for one that was not. message is the success or failure message, or
     * NULL when there is none (hide at once). failure is NULL on success;
     * its message is "" when message already says it (see
     * presenter_failure).
     */
    presenter_status (*hide)(void *instance, presenter_view *view,
                             const char *message,
                             const presenter_interactor *interactor,
                             const presenter_failure *failure);
    /**
     * A shown interactor reported a new progress fraction,
     * interactor->progress in [0, 1], or, since 1.1, a new working message
     * (interactor->message) or a fraction that became unknown again
     * (negative; never given to a presenter built for 1.0). Called only between that interactor's show and
     * hide, any number of times (the host MAY drop intermediate values).
     * MAY be NULL (inherited, else the report is ignored).
     */
    presenter_status (*progress)(void *instance, presenter_view *view,
                                 const presenter_interactor *interactor);
    /**
     * Paints the presenter's current state. What it draws replaces what the
     * last render drew, so render draws everything it shows each time;
     * drawing nothing hides the presenter. now_ns is the frame's time on the
     * clock of now_ns. Called after every show, hide, progress and key, when
     * the view's size changes, and at the times asked for with
     * request_frame; never otherwise (so never before the first of these).
     * Between renders the host keeps showing what the last one drew. The
     * drawing services work only here.
     * MAY be NULL (inherited, else the presenter draws nothing).
     *
     * Done: a presenter is done (its outcome shown) when a render draws
     * nothing and asks for no further frame. Where the program goes on
     * after the work (the Add Bookmark screen, `drive` between actions,
     * `run --linger`), the host waits for that, at most the
     * "outcome-limit-ms" option after the "min-show-ms" one, then takes the
     * view away whatever it shows. `run` and `drive` end as soon as the
     * work does: the view goes at once, or, when the outcome stays, after
     * one last render with PRESENTER_VIEW_FINAL (since 1.3).
     */
    void (*render)(void *instance, presenter_view *view, uint64_t now_ns);
    /**
     * A key was pressed while the presenter shows a failure that may wait
     * for one: a Unicode code point, 13 for Enter (PRESENTER_KEY_* for the
     * others). Keys are the view's: the host offers the presenter one only
     * in a view with PRESENTER_VIEW_INTERACTIVE, after the hide of the
     * view's last shown interactor when that hide carried a failure, from
     * the render after it, if it drew something, until a render draws
     * nothing or another interactor is shown; one key for each such
     * failure (used or not), and never Escape, which stays the view's (the
     * user can always leave). Returns 1 when the presenter used it (it
     * dismissed the failure: the key does nothing else), 0 to let the view
     * have it. MAY be NULL (inherited, else every key goes to the view).
     */
    int32_t (*key)(void *instance, presenter_view *view, uint32_t key);
} presenter_descriptor;

/** The entry point's type; see PRESENTER_ENTRY_SYMBOL. */
typedef const presenter_descriptor *(*presenter_descriptor_fn)(uint32_t index);

/* ------------------------------------------------------------------------
 * The description (since 1.3): what a plugin holds, read without running it
 * ------------------------------------------------------------------------ */

/*
 * A plugin SHOULD describe its presenters in its file, where the host reads
 * them as data: `presenter-host --list`, the registry and `check` then run
 * none of its code (no constructor, no entry point) outside the sandboxed
 * presenter process, and need no scan helper. A plugin without a
 * description is loaded once in a sandboxed scan helper to read its
 * descriptors, as before 1.3 (`check` warns).
 *
 * The description is one ELF note per presenter in an allocated note
 * section (the linker puts it in a PT_NOTE segment, which `strip` keeps):
 *
 *   n_namesz  10, n_descsz  the text's size, n_type  PRESENTER_NOTE_TYPE,
 *   name      "presenter\0" padded to 12 bytes,
 *   desc      the text, padded with NULs to a multiple of 4 bytes.
 *
 * (The gABI's layout, in a segment aligned to 4, as PRESENTER_DESCRIBE's
 * section is; in a segment aligned to 8 the host reads notes as the gABI
 * lays them out there, the name and the text each padded to 8.)
 *
 * The text is a list of `key=value` entries, each ended by a NUL, in any
 * order; the first empty entry (or the end) ends it:
 *
 *   abi=1.4            PRESENTER_ABI_MAJOR.PRESENTER_ABI_MINOR: the header's
 *   index=0            the descriptor's index (0 for the first)
 *   id=..., name=..., version=...               required, as the descriptor's
 *   description=..., author=..., license=..., extends=...      optional
 *   capabilities=messages,determinate,one-row   the PRESENTER_CAP_* bits set
 *   hooks=create,destroy,show,hide,progress,render,key   the hooks not NULL
 *
 * The same rules hold as for the descriptor's fields (presenter_descriptor),
 * and a key not listed here, or given twice, makes the description invalid.
 * Every descriptor MUST have exactly one note, the same abi, and the same
 * fields as the descriptor it describes: a presenter process refuses a file
 * whose live descriptors disagree with its description, and `check` says
 * which field. In C or C++, PRESENTER_DESCRIBE writes one note:
 *
 *   PRESENTER_DESCRIBE(hello_description,
 *       PRESENTER_FIELD(index, "0")
 *       PRESENTER_FIELD(id, "hello")
 *       PRESENTER_FIELD(name, "Hello")
 *       PRESENTER_FIELD(version, "1.0.0")
 *       PRESENTER_FIELD(capabilities, "messages")
 *       PRESENTER_FIELD(hooks, "create,destroy,show,hide,render"));
 *
 * (values are string literals; the abi entry is added). These macros are
 * for C and C++ alone: they are function-like, which Swift's importer does
 * not see, and a Swift presenter gets its description from the SDK's
 * PresenterDescription build plugin instead (docs/writing-a-presenter.md);
 * Rust writes the same bytes with #[link_section] (docs/ABI.md).
 */

/** The owner name of a description note. */
#define PRESENTER_NOTE_NAME "presenter"
/** The type of a description note. */
#define PRESENTER_NOTE_TYPE 1

#define PRESENTER_STRINGIFY_(x) #x
/** Expands a macro, then makes a string of it. */
#define PRESENTER_STRINGIFY(x) PRESENTER_STRINGIFY_(x)
/** One `key=value` entry of a description; value is a string literal. */
#define PRESENTER_FIELD(key, value) #key "=" value "\0"
/** The text of a description: the abi entry, then fields. */
#define PRESENTER_DESCRIPTION_TEXT(fields)                                                          \
    "abi=" PRESENTER_STRINGIFY(PRESENTER_ABI_MAJOR) "." PRESENTER_STRINGIFY(PRESENTER_ABI_MINOR) \
        "\0" fields
/**
 * Defines `symbol`, one description note holding fields
 * (PRESENTER_FIELD entries, one after the other), in the section
 * ".note.presenter". Use it once per presenter, at file scope.
 */
#define PRESENTER_DESCRIBE(symbol, fields)                                                        \
    __attribute__((section(".note.presenter"), used, aligned(4))) static const struct {        \
        uint32_t name_size, description_size, type;                                              \
        char name[12];                                                                           \
        char description[(sizeof(PRESENTER_DESCRIPTION_TEXT(fields)) + 3u) / 4u * 4u];          \
    } symbol = {10u, (uint32_t)sizeof(PRESENTER_DESCRIPTION_TEXT(fields)), PRESENTER_NOTE_TYPE, \
                PRESENTER_NOTE_NAME, PRESENTER_DESCRIPTION_TEXT(fields)}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PRESENTER_ABI_H */
