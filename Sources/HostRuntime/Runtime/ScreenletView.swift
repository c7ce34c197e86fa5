import HostEngine
import HostText

/// A screen that runs actions, in the original's model: it declares its
/// progress messages per action and chooses its presenter. Subclass it and
/// override what differs; `run`'s view only sets messages.
///
/// ```swift
/// final class AddBookmarkView: ScreenletView {
///     override var progressMessages: [String: ProgressMessages] {
///         get { ["add-bookmark": [.working: "Saving bookmark...", .success: "Bookmark saved!"],
///                "get-title": [.working: NoProgressMessage]] }
///         set {}
///     }
///     override func createProgressPresenter() -> String { "addbookmark" }
/// }
/// ```
// Safe by contract: its tables are set up before attaching and then only read; drawing and keys
// come on the presenter thread alone. Subclasses keep to the same rule.
open class ScreenletView: @unchecked Sendable {
    /// The key of the messages used for an action that declares none.
    public static let defaultAction = "default"

    /// Messages by action name; ``defaultAction`` holds the fallback table.
    /// Read on the thread that calls ``Screenlet/perform(action:interactorType:)``.
    open var progressMessages: [String: ProgressMessages]

    /// Named elements presenters may hide, show, start and stop animating.
    /// Set them up before attaching the view.
    open var elements: [String: ViewElement]

    /// A view with `progressMessages` and `elements`.
    public init(progressMessages: [String: ProgressMessages] = [:], elements: [String: ViewElement] = [:]) {
        self.progressMessages = progressMessages
        self.elements = elements
    }

    /// The id of the presenter plugin for this view (default "mbhud").
    open func createProgressPresenter() -> String { "mbhud" }

    /// Draws the view's own content before its presenter paints over it,
    /// on the presenter thread, at each frame that may show a change of it:
    /// after ``Screenlet/setNeedsDisplay()``, a change of its elements or
    /// messages, a resize, and at the times it asks for. A frame that only
    /// turns a presenter's `draw_cycle` may be one composed before, without
    /// drawing the view again. `now` is the frame time.
    ///
    /// - Returns: when the view wants its next frame (for its own
    ///   animations, on the clock of ``HostClock``), or `nil`. A view whose
    ///   drawing follows the time returns one.
    open func draw(in canvas: inout Canvas, at now: UInt64, flags: ViewFlags) -> UInt64? { nil }

    /// One of its actions started; `message` is its working message (nil:
    /// none, and the presenter is not told). On the presenter thread, in
    /// the job that gives the presenter its show: a view that says it too
    /// (a status line) draws its next frame with the presenter's picture of
    /// the same moment.
    open func actionStarted(_ action: String, message: String?) {}

    /// One of its actions ended; `message` is what the presenter's hide gets
    /// (the success or failure message, a validation error's text; nil:
    /// none), `error` is nil on success. Also for an action the presenter
    /// was not told of. On the presenter thread, in the job that gives the
    /// presenter its hide.
    open func actionEnded(_ action: String, message: String?, error: InteractorError?) {}

    /// A key, unless its presenter was offered it and used it (see
    /// ``PresenterRuntime/key(_:)``), on the presenter thread. Returns true
    /// when the view used it.
    open func handleKey(_ code: UInt32) -> Bool { false }
}
