import HostPlugins
import PresenterABI

/// Names one attached view between the runtime and an engine.
package typealias ViewID = UInt32

/// Where presenter instances live and their hooks run: in this process
/// (``LocalPresenterEngine``, which trusts its plugins) or in a presenter
/// process (``PresenterProcess``, which contains them).
///
/// The runtime calls it on its presenter thread only, one call at a time.
/// Each call returns once the hooks it stands for have returned. A call
/// throws only when the engine is gone for good (its process crashed,
/// exited, hung or broke the protocol); a hook that returns an error status
/// is an ``HookOutcome``, not a throw.
package protocol PresenterEngine: AnyObject {
    /// Hears of element operations and log lines during the calls.
    var delegate: PresenterEngineDelegate? { get set }

    /// Creates the instance chain of `view`, bases first; `chain` is the
    /// resolved presenter as the registry gave it, carried as is. A create that
    /// fails throws with ``PresenterFailure/Reason/createFailed(status:message:)``
    /// (the instances made so far are destroyed again).
    func attach(_ view: ViewID, chain: PresenterChain, elements: [String]) throws(PresenterFailure)
    /// An interactor of `view` started (show hook).
    func show(_ view: ViewID, message: String, interactor: InteractorSnapshot) throws(PresenterFailure) -> HookOutcome
    /// An interactor of `view` ended (hide hook); `failure` is nil on success.
    func hide(
        _ view: ViewID, message: String?, interactor: InteractorSnapshot,
        failure: InteractorError?
    ) throws(PresenterFailure) -> HookOutcome
    /// A shown interactor of `view` reported progress (progress hook).
    func progress(_ view: ViewID, interactor: InteractorSnapshot) throws(PresenterFailure) -> HookOutcome
    /// Renders `view`'s presenter at `now` and returns what it drew. With
    /// `final`, the view's flags have `PRESENTER_VIEW_FINAL` during the
    /// render: it is the view's last, and what it draws stays on the screen.
    func render(_ view: ViewID, at now: UInt64, final: Bool) throws(PresenterFailure) -> [DrawOperation]
    /// Offers a key to `view`'s presenter; true when it used it.
    func key(_ view: ViewID, code: UInt32) throws(PresenterFailure) -> Bool
    /// The size and flags every view has from now on (one region: all views share it).
    func setGeometry(_ geometry: ViewGeometry) throws(PresenterFailure)
    /// Destroys `view`'s instance chain, its presenter first.
    func detach(_ view: ViewID) throws(PresenterFailure)
    /// For each view whose presenters asked for a frame they have not had
    /// yet, the earliest time asked (on the clock of `now_ns`).
    var frameRequests: [ViewID: UInt64] { get }
    /// Ends the engine (a presenter process exits). Instances not detached
    /// are not destroyed. Later calls do nothing.
    func close()
    /// The run is ending: whatever the engine still waits for gets at most
    /// one hook budget from now (a presenter process still starting or
    /// loading). Any thread, unlike the other methods: a closure of its
    /// own, so that whoever calls it from there need not hold the engine.
    var hurry: @Sendable () -> Void { get }
    /// Nothing the presenters would still draw will be seen (the work is
    /// over, nothing of it stays, and the caller shuts down at once): the
    /// engine stops them now instead of waiting for the hooks they are owed.
    /// A presenter process is killed, so that a call waiting for it fails
    /// at once (the process died of SIGKILL), and every later call fails;
    /// the runtime, which asked, takes that death as the end it chose, not
    /// as the presenter's failure. Nil where hooks run in this process:
    /// they cannot be cut short. Any thread, as ``hurry``.
    var dismiss: (@Sendable () -> Void)? { get }
}

extension PresenterEngine {
    /// Renders `view`'s presenter at `now` (not its last render).
    package func render(_ view: ViewID, at now: UInt64) throws(PresenterFailure) -> [DrawOperation] {
        try render(view, at: now, final: false)
    }
}

/// Hears what presenters do during an engine call, on the runtime's thread.
package protocol PresenterEngineDelegate: AnyObject {
    /// A presenter applied a `PRESENTER_ELEMENT_*` operation to a named
    /// element of `view` (the engine checked the name and the operation).
    func engine(view: ViewID, element: String, operation: Int32)
    /// A presenter logged a line (or, for a presenter process, printed one).
    func engine(log entry: PresenterLogEntry)
}

/// The size and flags of a view, as `view_size` and `view_flags` give them.
package struct ViewGeometry: Equatable, Sendable {
    var cols: Int
    var rows: Int
    /// `PRESENTER_VIEW_*` bits.
    package var flags: UInt32

    package init(cols: Int, rows: Int, flags: UInt32) {
        self.cols = cols
        self.rows = rows
        self.flags = flags
    }

    var isUnicode: Bool { flags & UInt32(PRESENTER_VIEW_UNICODE) != 0 }
}

/// What a presenter is told of an interactor (`presenter_interactor`).
package struct InteractorSnapshot: Equatable, Sendable {
    var id: UInt64
    var type: String
    var action: String
    /// In [0, 1], or negative when unknown.
    package var progress: Double
    /// The working message the work reported since show (`message`, ABI
    /// 1.1), `nil` while show's stands.
    var message: String? = nil
    /// The time, counts, rate and time left (ABI 1.4).
    package var timing: InteractorTiming

    package init(
        id: UInt64, type: String, action: String, progress: Double, message: String? = nil,
        timing: InteractorTiming = .unknown
    ) {
        self.id = id
        self.type = type
        self.action = action
        self.progress = progress
        self.message = message
        self.timing = timing
    }
}

/// What a status-returning hook did: its status and the message it set.
package struct HookOutcome: Equatable, Sendable {
    package var status: presenter_status
    /// The hook that ran; nil when none did.
    package var hook: Hook?
    /// The presenter whose hook ran (a base, for an inherited hook).
    package var presenterId: String
    /// What the hook passed to set_error, for a failing status.
    package var message: String?

    /// No hook ran, or it succeeded.
    package static let ok = HookOutcome(status: PRESENTER_OK, hook: nil, presenterId: "", message: nil)
    package var failed: Bool { status != PRESENTER_OK }
}
