import HostPlugins

/// The messages of the presenter protocol, version ``version``, between the
/// host and its presenter process (docs/ARCHITECTURE.md describes it).
///
/// The host sends requests, each with a sequence number; the presenter
/// process answers each, in order, with one ``Reply`` carrying the same
/// number, and may send ``Notice``s (log lines, element operations) while a
/// request runs, never otherwise. It speaks first, with ``Notice/hello(version:sandbox:)``.
enum PresenterMessage {
    /// Bumped whenever a message is added or changes meaning. 4: `load`
    /// names presenters and answers their handles, `attach` names handles,
    /// a refusal is data. 5: an interactor carries its timing (ABI 1.4).
    static let version: UInt32 = 5

    /// What the host asks.
    enum Request: Equatable {
        /// Once, first: the plugin options and the views' size and flags.
        case configure(options: [String: String], geometry: ViewGeometry)
        /// Load these plugin files (`dlopen`, entry point, descriptors): each
        /// a sealed copy the host made of the file it checked
        /// (`PluginFile.image()`), passed with this request's first byte
        /// (SCM_RIGHTS), in this order; with each, the presenters of it the
        /// host resolved. Answered with ``Result/loaded(handles:)``.
        case load(files: [FileLoad])
        /// Create `view`'s chain: the handles of the presenter, then of its bases.
        case attach(view: ViewID, chain: [Handle], elements: [String])
        case show(view: ViewID, message: String, interactor: InteractorSnapshot)
        case hide(view: ViewID, message: String?, interactor: InteractorSnapshot, failure: InteractorError?)
        case progress(view: ViewID, interactor: InteractorSnapshot)
        /// `final`: the view's last render (`PRESENTER_VIEW_FINAL`; version 3).
        case render(view: ViewID, now: UInt64, final: Bool)
        case key(view: ViewID, code: UInt32)
        case geometry(ViewGeometry)
        case detach(view: ViewID)
    }

    /// What `attach` names a presenter by: the presenter process numbers
    /// those it loads from 0, in the order `load` asked for them, so the
    /// host knows a handle before the answer comes (an attach follows its
    /// load without waiting) and checks the answer against it.
    typealias Handle = UInt32

    /// A file to load, and the presenters of it to make handles for.
    struct FileLoad: Equatable {
        /// The file's real path: it names the sealed copy, in messages only.
        var path: String
        /// By descriptor index, each with the id the host resolved there:
        /// a file whose descriptor there has another id is refused.
        var presenters: [Presenter]
    }

    /// A presenter of a file, as resolution found it.
    struct Presenter: Equatable {
        var index: UInt32
        var id: String
    }

    /// Why the presenter process did not load a presenter, as data.
    enum Refusal: Equatable {
        /// The file does not load there (its copy, `dlopen`, its entry point).
        case file(path: String, PluginLoadFailure)
        /// The file loads, but holds no usable presenter `id` where resolution found it.
        case presenter(path: String, id: String)
    }

    /// What a request gave.
    enum Result: Equatable {
        /// configure, geometry, detach; attach when it worked.
        case done
        /// load: a handle for each presenter asked for, in order.
        case loaded(handles: [Handle])
        /// load could not be done (a file that does not load, a presenter
        /// not in it).
        case refused(Refusal)
        /// attach: a create hook failed.
        case createFailed(presenterId: String, status: Int32, message: String?)
        /// show, hide, progress.
        case outcome(HookOutcome)
        /// render.
        case drawing([DrawOperation])
        /// key: whether the presenter used it.
        case keyUsed(Bool)
    }

    /// One answer: the request's number, its result, and the frames the
    /// views' presenters have asked for and not had yet.
    struct Reply: Equatable {
        var sequence: UInt32
        var result: Result
        var frameRequests: [ViewID: UInt64]
    }

    /// What the presenter process says besides replies.
    enum Notice: Equatable {
        /// The protocol's version, and the sandbox the process is under
        /// (``ConfinementReport/encoded``; version 2).
        case hello(version: UInt32, sandbox: String)
        case log(PresenterLogEntry)
        case element(view: ViewID, name: String, operation: Int32)
    }

    /// Anything the presenter process sends.
    enum Incoming: Equatable {
        case notice(Notice)
        case reply(Reply)
    }
}
