import HostRuntime
import HostText

/// The Add Bookmark form's state and its answer to each key, with no
/// drawing and no I/O: the view draws it, the screen carries out what it
/// asks for (``Request``).
///
/// As in the original: a "Site URL" field, a "Title" field with a get-title
/// button beside it (enabled only while the URL is not empty) and an
/// ADD BOOKMARK button. Leaving the URL field fetches the title, as the
/// original's text-field delegate does, unless that URL's title was
/// already asked for (fetched, being fetched, or failed): moving back and
/// forth between the fields does not fetch it, or show its failure, again
/// and again; the button asks again.
///
/// Ctrl-C and Ctrl-Z are not the form's: the screen takes them before any
/// key reaches a presenter or the form.
package struct BookmarkForm: Sendable {
    /// What can have the focus, in Tab order.
    package enum Focus: Int, CaseIterable, Sendable {
        case url, title, getTitle, add
    }

    /// What the screen must do after a key.
    package enum Request: Equatable, Sendable {
        /// Fetch the title of this URL (as typed); `explicit` when the
        /// button was pressed (its title replaces one the user typed).
        case getTitle(url: String, explicit: Bool)
        /// Validate and save this bookmark.
        case add(url: String, title: String)
        /// Leave the screen (Esc).
        case quit
    }

    /// How the last action ended, for the status line.
    package enum Status: Equatable, Sendable {
        case none
        case info(String)
        case success(String)
        case failure(String)
    }

    package var url: TextField
    package var title: TextField
    package private(set) var focus: Focus = .url
    package var status: Status = .none
    /// The URL whose title was last asked for (a leave does not ask again).
    private var fetchedURL: String?
    /// The title field holds what a fetch put there, untouched since: the
    /// next fetch may replace it. A title the user typed is never replaced
    /// by a fetch that leaving the URL field started (the button's is asked for).
    private var titleFromFetch = true

    /// A form with the given values; the focus is in the URL field.
    package init(url: String = "", title: String = "") {
        self.url = TextField(url)
        self.title = TextField(title)
        titleFromFetch = title.isEmpty
    }

    /// Whether the get-title button can be pressed.
    package var canGetTitle: Bool { !trimmed(url.text).isEmpty }

    /// Applies `key` and says what the screen must do.
    package mutating func handle(_ key: TerminalKey) -> [Request] {
        switch key {
        case .escape: return [.quit]
        case .tab, .down: return move(by: 1)
        case .backTab, .up: return move(by: -1)
        case .enter:
            switch focus {
            case .url, .title: return move(by: 1)
            case .getTitle: return pressGetTitle()
            case .add: return [.add(url: trimmed(url.text), title: trimmed(title.text))]
            }
        default:
            if focus == .url || focus == .title {
                edit(key)
            } else if key == .left {
                return move(by: -1)
            } else if key == .right {
                return move(by: 1)
            }
            return []
        }
    }

    /// A fetch of `forURL` ended with `title`: it fills the field unless the
    /// user typed a title meanwhile (`explicit`: the button was pressed,
    /// which always fills it) or the URL changed since. `address`, when
    /// given, is the URL that answered in place of `forURL` (http, for a
    /// URL typed without a scheme): it replaces the URL field's text, and
    /// leaving the field does not fetch it again. Returns whether the title
    /// was filled.
    @discardableResult
    package mutating func titleFetched(
        _ fetched: String, forURL: String, explicit: Bool, address: String? = nil
    ) -> Bool {
        guard trimmed(url.text) == forURL else { return false }
        if let address {
            url.set(address)
            if fetchedURL == forURL { fetchedURL = address }
        }
        guard explicit || titleFromFetch || title.isEmpty else { return false }
        title.set(fetched)
        titleFromFetch = true
        return true
    }

    /// Moves the focus to `target` (a click would; tests use it).
    package mutating func focus(on target: Focus) -> [Request] {
        let leaving = focus
        focus = target
        return leaving == .url && target != .url ? leftURLField() : []
    }

    // MARK: - Private

    private mutating func move(by step: Int) -> [Request] {
        let order = Focus.allCases.filter { $0 != .getTitle || canGetTitle }
        let index = order.firstIndex(of: focus) ?? 0
        return focus(on: order[(index + step + order.count) % order.count])
    }

    private mutating func pressGetTitle() -> [Request] {
        guard canGetTitle else { return [] }
        let target = trimmed(url.text)
        fetchedURL = target
        return [.getTitle(url: target, explicit: true)]
    }

    private mutating func leftURLField() -> [Request] {
        let target = trimmed(url.text)
        guard !target.isEmpty, target != fetchedURL else { return [] }
        fetchedURL = target
        return [.getTitle(url: target, explicit: false)]
    }

    private mutating func edit(_ key: TerminalKey) {
        var field = focus == .url ? url : title
        switch key {
        case .text(let scalar): field.insert(String(scalar))
        case .paste(let text): field.insert(text)
        case .left: field.moveLeft()
        case .right: field.moveRight()
        case .home, .control(1): field.moveHome()
        case .end, .control(5): field.moveEnd()
        case .backspace: field.deleteBackward()
        case .delete: field.deleteForward()
        case .control(21): field.deleteToStart()
        case .control(23): field.deleteWordBackward()
        default: return
        }
        if focus == .url {
            url = field
        } else {
            if field.text != title.text { titleFromFetch = false }
            title = field
        }
    }

    private func trimmed(_ text: String) -> String {
        text.trimmingWhitespace()
    }
}
