/// A saved page: what the Add Bookmark screen saves and `presenter-host
/// bookmarks` lists. A store holds at most one bookmark per URL (compared
/// as exact strings: callers normalise the URL first).
package struct Bookmark: Equatable, Sendable {
    /// The page's address (an http or https URL once validated).
    package var url: String
    /// The title the user saved it under.
    package var title: String

    /// A bookmark of `url` titled `title`.
    package init(url: String, title: String) {
        self.url = url
        self.title = title
    }
}
