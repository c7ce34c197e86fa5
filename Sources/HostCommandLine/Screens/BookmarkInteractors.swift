import HostBookmarks
import HostEngine
import HostRuntime
import HostSystem
import HostText

/// The Add Bookmark screen's two interactors, as in the original: each
/// performs its action on the screenlet (so its presenter shows it), does
/// its work on a thread of its own, and ends the interactor with the outcome
/// before it hands the result on.
enum BookmarkInteractors {
    /// The interactor type the addbookmark presenter shows over its button.
    static let getTitleType = "GetWebTitleInteractor"
    static let addType = "AddBookmarkInteractor"

    /// Fetches the title of `url` (as typed: a URL without a scheme is
    /// tried over https, then http; ``WebTitle/attempts(for:)``) under the
    /// "get-title" action. `completion` runs on the fetching thread with the
    /// URL as fetched (the http one when it fell back) and the outcome;
    /// `note` hears the fetch's decisions (`-v`). Returns the fetch, to
    /// cancel it.
    @discardableResult
    static func getTitle(
        of url: String, on screenlet: Screenlet, timeout: Double, environment: [String: String],
        note: (@Sendable (String) -> Void)? = nil,
        completion: @escaping @Sendable (String, Result<String, WebTitleError>) -> Void
    ) -> WebTitleFetch? {
        let handle = screenlet.perform(action: AddBookmarkView.getTitleAction, interactorType: getTitleType)
        let target: String
        let fetch: WebTitleFetch
        do {
            target = try WebTitle.normalizedURL(url)
            fetch = WebTitleFetch(url: url, timeout: timeout, environment: environment, note: note)
        } catch {
            target = url
            // An impossible URL fails without a fetch, still on the fetching
            // thread: completions never run inside the caller's work.
            let failure = error
            DetachedThread.start {
                handle.fail(InteractorError(domain: AddBookmarkView.getTitleAction, message: failure.reason))
                completion(target, .failure(failure))
            }
            return nil
        }
        DetachedThread.start {
            let result = fetch.run()
            switch result {
            case .success: handle.succeed()
            case .failure(let error):
                handle.fail(InteractorError(domain: AddBookmarkView.getTitleAction, message: error.reason))
            }
            completion(fetch.fetchedURL ?? target, result)
        }
        return fetch
    }

    /// Validates and saves a bookmark under the "add-bookmark" action: a
    /// validation error's text is the failure message (as in the original),
    /// any other failure keeps the action's failure message and gives its
    /// reason. The action ends no sooner than `lasting` seconds after it
    /// started (the screen's minimum, so that "Saving..." can be read).
    /// `completion` runs on the saving thread, once the action ended.
    static func add(
        url: String, title: String, to store: BookmarkStore, on screenlet: Screenlet, lasting: Double = 0,
        interruption: BookmarkSaveInterruption? = nil,
        completion: @escaping @Sendable (Result<Bookmark, InteractorError>) -> Void
    ) {
        let handle = screenlet.perform(action: AddBookmarkView.addAction, interactorType: addType)
        let endsNoSooner = MonotonicTime.nanoseconds() &+ UInt64(max(0, lasting) * 1e9)
        DetachedThread.start {
            let result = save(url: url, title: title, to: store, interruption: interruption)
            // The rest of the minimum, cut short by an interruption (the
            // host is leaving: a signal ends the pause at once).
            (interruption ?? BookmarkSaveInterruption()).wait(until: endsNoSooner)
            switch result {
            case .success: handle.succeed()
            case .failure(let error): handle.fail(error)
            }
            completion(result)
        }
    }

    /// The bookmark as saved: the URL as a browser would read it
    /// (`example.com` is `https://example.com`, a user and password taken
    /// out). One that cannot be read so is refused: by the validation,
    /// which names what is wrong with it as typed (without a password), or
    /// with the reason it cannot be read; it is never saved as typed, which
    /// would keep a password in the store.
    static func save(
        url: String, title: String, to store: BookmarkStore, interruption: BookmarkSaveInterruption? = nil
    ) -> Result<Bookmark, InteractorError> {
        let url = url.trimmingWhitespace()
        let title = title.trimmingWhitespace()
        let normalized: String
        do throws(WebTitleError) {
            normalized = url.isEmpty ? url : try WebTitle.normalizedURL(url)
        } catch {
            let shown = WebTitle.withoutUserInfo(url)
            return .failure(BookmarkValidation.validate(url: shown, title: title) ?? .validation(error.reason))
        }
        if let invalid = BookmarkValidation.validate(url: normalized, title: title) { return .failure(invalid) }
        let bookmark = Bookmark(url: normalized, title: title)
        do {
            try store.add(bookmark, interruption: interruption)
            return .success(bookmark)
        } catch {
            return .failure(InteractorError(domain: "bookmark-store", message: error.reason))
        }
    }
}
