//! dots_presenter.rs -- a presenter written in Rust, with no crates: the
//! header's structs written out by hand with #[repr(C)], and extern "C" hooks.
//!
//! While actions run it draws the latest working message and a row of dots
//! that grows every 200 ms on the view's bottom row; when the last action
//! ends it draws nothing.
//!
//! What a Rust author watches for (docs/ABI.md, "C++ and Rust"):
//!   - every struct below mirrors presenter_abi.h field for field, with
//!     #[repr(C)]: the ABI is the header's layout, not Rust's;
//!   - no panic crosses the boundary: each hook runs its body in
//!     catch_unwind and returns a status (a panic in an extern "C" function
//!     aborts the presenter process, or is undefined behaviour in old rustc);
//!   - the descriptor is a static: it lives as long as the library, and its
//!     strings are NUL-terminated byte literals;
//!   - the entry point is #[no_mangle] pub extern "C";
//!   - the description (ABI 1.3) is a #[used] static in a ".note.presenter"
//!     section: the same fields as data, which presenter-host reads from
//!     the file without loading it.
//!
//! Build (one command, no Cargo):
//!   rustc --edition 2021 --crate-type cdylib -O -o libdots_presenter.so dots_presenter.rs
//! Try:
//!   presenter-host --plugin-dir . run --presenter example.rust-dots -- sleep 2

use std::collections::BTreeMap;
use std::ffi::CStr;
use std::os::raw::{c_char, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

// ---- The ABI (presenter_abi.h, version 1.0) -------------------------------

type Status = i32;
const PRESENTER_OK: Status = 0;
const PRESENTER_ERR_FAILED: Status = 1;
const PRESENTER_CAP_MESSAGES: u64 = 0x1;
const PRESENTER_LOG_INFO: i32 = 1;
const PRESENTER_COLOR_YELLOW: u32 = 3;

#[repr(C)]
pub struct Context {
    _opaque: [u8; 0],
}
#[repr(C)]
pub struct View {
    _opaque: [u8; 0],
}

#[repr(C)]
pub struct Interactor {
    struct_size: u32,
    reserved: u32,
    type_name: *const c_char,
    action: *const c_char,
    id: u64,
    progress: f64,
}

#[repr(C)]
pub struct Failure {
    struct_size: u32,
    reserved: u32,
    code: i64,
    domain: *const c_char,
    message: *const c_char,
}

#[repr(C)]
pub struct Host {
    struct_size: u32,
    abi_major: u16,
    abi_minor: u16,
    log: extern "C" fn(*mut Context, i32, *const c_char),
    set_error: extern "C" fn(*mut Context, *const c_char),
    now_ns: extern "C" fn(*mut Context) -> u64,
    request_frame: extern "C" fn(*mut Context, u64),
    option: extern "C" fn(*mut Context, *const c_char) -> *const c_char,
    base_show: extern "C" fn(*mut Context, *mut View, *const c_char, *const Interactor) -> Status,
    base_hide: extern "C" fn(*mut Context, *mut View, *const c_char, *const Interactor, *const Failure) -> Status,
    base_progress: extern "C" fn(*mut Context, *mut View, *const Interactor) -> Status,
    base_render: extern "C" fn(*mut Context, *mut View, u64),
    base_key: extern "C" fn(*mut Context, *mut View, u32) -> i32,
    view_size: extern "C" fn(*mut View, *mut u32, *mut u32),
    view_flags: extern "C" fn(*mut View) -> u32,
    text_width: extern "C" fn(*mut View, *const c_char) -> u32,
    draw_text: extern "C" fn(*mut View, i32, i32, u32, *const c_char, u32) -> u32,
    draw_box: extern "C" fn(*mut View, i32, i32, u32, u32, u32),
    element: extern "C" fn(*mut View, *const c_char, i32) -> Status,
}

type CreateFn = extern "C" fn(*const Descriptor, *const Host, *mut Context, *mut *mut c_void) -> Status;
type ShowFn = extern "C" fn(*mut c_void, *mut View, *const c_char, *const Interactor) -> Status;
type HideFn = extern "C" fn(*mut c_void, *mut View, *const c_char, *const Interactor, *const Failure) -> Status;
type ProgressFn = extern "C" fn(*mut c_void, *mut View, *const Interactor) -> Status;
type RenderFn = extern "C" fn(*mut c_void, *mut View, u64);
type KeyFn = extern "C" fn(*mut c_void, *mut View, u32) -> i32;

#[repr(C)]
pub struct Descriptor {
    struct_size: u32,
    abi_major: u16,
    abi_minor: u16,
    id: *const c_char,
    name: *const c_char,
    version: *const c_char,
    description: *const c_char,
    author: *const c_char,
    license: *const c_char,
    extends: *const c_char,
    capabilities: u64,
    create: Option<CreateFn>,
    destroy: Option<extern "C" fn(*mut c_void)>,
    show: Option<ShowFn>,
    hide: Option<HideFn>,
    progress: Option<ProgressFn>,
    render: Option<RenderFn>,
    key: Option<KeyFn>,
}

/// The descriptor holds raw pointers, which Rust does not share between
/// threads by itself; they point to static, immutable data, so it may.
#[repr(transparent)]
pub struct Static(Descriptor);
unsafe impl Sync for Static {}

// ---- The presenter ---------------------------------------------------------

const FRAME_NS: u64 = 200_000_000;

struct Dots {
    host: *const Host,
    ctx: *mut Context,
    /// Shown interactors by id; the message is drawn NUL-terminated.
    messages: BTreeMap<u64, Vec<u8>>,
}

/// Runs a hook's body; a panic becomes PRESENTER_ERR_FAILED instead of
/// unwinding into the host.
fn guarded(body: impl FnOnce() -> Status) -> Status {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or(PRESENTER_ERR_FAILED)
}

extern "C" fn create(_: *const Descriptor, host: *const Host, ctx: *mut Context, instance: *mut *mut c_void) -> Status {
    guarded(|| {
        let dots = Box::new(Dots { host, ctx, messages: BTreeMap::new() });
        unsafe { *instance = Box::into_raw(dots) as *mut c_void };
        PRESENTER_OK
    })
}

extern "C" fn destroy(instance: *mut c_void) {
    let _ = catch_unwind(|| drop(unsafe { Box::from_raw(instance as *mut Dots) }));
}

extern "C" fn show(instance: *mut c_void, _: *mut View, message: *const c_char, interactor: *const Interactor) -> Status {
    guarded(|| {
        let dots = unsafe { &mut *(instance as *mut Dots) };
        // The host's string lives only for this call: copy it, NUL included.
        let text = unsafe { CStr::from_ptr(message) }.to_bytes_with_nul().to_vec();
        dots.messages.insert(unsafe { (*interactor).id }, text);
        PRESENTER_OK
    })
}

extern "C" fn hide(instance: *mut c_void, _: *mut View, _: *const c_char, interactor: *const Interactor,
                   failure: *const Failure) -> Status {
    guarded(|| {
        let dots = unsafe { &mut *(instance as *mut Dots) };
        if !failure.is_null() {
            let host = unsafe { &*dots.host };
            (host.log)(dots.ctx, PRESENTER_LOG_INFO, unsafe { (*failure).message });
        }
        dots.messages.remove(&unsafe { (*interactor).id });
        PRESENTER_OK
    })
}

extern "C" fn render(instance: *mut c_void, view: *mut View, now_ns: u64) {
    let _ = guarded(|| {
        let dots = unsafe { &mut *(instance as *mut Dots) };
        let message = match dots.messages.values().next_back() {
            Some(message) => message,
            None => return PRESENTER_OK, // drawing nothing hides the presenter
        };
        let host = unsafe { &*dots.host };
        let (mut cols, mut rows) = (0u32, 0u32);
        (host.view_size)(view, &mut cols, &mut rows);
        if cols == 0 || rows == 0 {
            return PRESENTER_OK;
        }
        let row = (rows - 1) as i32;
        let used = (host.draw_text)(view, 0, row, cols, message.as_ptr() as *const c_char, 0);
        let mut trail = vec![b'.'; (1 + (now_ns / FRAME_NS) % 3) as usize];
        trail.push(0);
        if used < cols {
            (host.draw_text)(view, used as i32, row, cols - used, trail.as_ptr() as *const c_char, PRESENTER_COLOR_YELLOW);
        }
        (host.request_frame)(dots.ctx, now_ns + FRAME_NS); // one-shot: ask again to keep the dots moving
        PRESENTER_OK
    });
}


static DESCRIPTOR: Static = Static(Descriptor {
    struct_size: std::mem::size_of::<Descriptor>() as u32,
    abi_major: 1,
    abi_minor: 3,
    id: b"example.rust-dots\0" as *const u8 as *const c_char,
    name: b"Rust Dots\0" as *const u8 as *const c_char,
    version: b"1.0.0\0" as *const u8 as *const c_char,
    description: b"The working message and growing dots, in Rust.\0" as *const u8 as *const c_char,
    author: b"presenter-host examples\0" as *const u8 as *const c_char,
    license: b"MIT\0" as *const u8 as *const c_char,
    extends: ptr::null(),
    capabilities: PRESENTER_CAP_MESSAGES,
    create: Some(create),
    destroy: Some(destroy),
    show: Some(show),
    hide: Some(hide),
    progress: None,
    render: Some(render),
    key: None,
});

// ---- The description (presenter_abi.h, "The description") -----------------

/// `key=value` entries, each ended by a NUL: the descriptor's fields, and
/// `hooks`, the hooks that are not None. The same values as DESCRIPTOR's:
/// presenter-host refuses the library where its code runs if they differ.
const DESCRIPTION_TEXT: &[u8] = b"abi=1.3\0index=0\0id=example.rust-dots\0name=Rust Dots\0version=1.0.0\0\
description=The working message and growing dots, in Rust.\0author=presenter-host examples\0license=MIT\0\
capabilities=messages\0hooks=create,destroy,show,hide,render\0";

/// One ELF note: its sizes, its type (1), the owner "presenter", the text
/// padded to 4 bytes.
#[repr(C, align(4))]
pub struct Note<const N: usize> {
    name_size: u32,
    text_size: u32,
    kind: u32,
    name: [u8; 12],
    text: [u8; N],
}

const fn padded<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut i = 0;
    while i < bytes.len() {
        out[i] = bytes[i];
        i += 1;
    }
    out
}

#[used]
#[link_section = ".note.presenter"]
static DESCRIPTION: Note<{ (DESCRIPTION_TEXT.len() + 3) / 4 * 4 }> = Note {
    name_size: 10,
    text_size: DESCRIPTION_TEXT.len() as u32,
    kind: 1,
    name: *b"presenter\0\0\0",
    text: padded(DESCRIPTION_TEXT),
};

/// The one exported function: presenter 0 is ours, there is no presenter 1.
#[no_mangle]
pub extern "C" fn presenter_plugin_descriptor(index: u32) -> *const Descriptor {
    if index == 0 { &DESCRIPTOR.0 } else { ptr::null() }
}
