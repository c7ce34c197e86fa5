import HostEngine

/// The Add Bookmark interactor's checks, in the original's order, before
/// anything is saved.
package enum BookmarkValidation {
    /// The first problem with saving `url` under `title`, as a validation
    /// error whose message replaces the action's failure message: "URL
    /// cannot be empty", "Title cannot be empty", "only http and https URLs
    /// can be saved"; `nil` when it can be saved. Text of white space only
    /// counts as empty (a form field of spaces looks empty). The scheme is
    /// compared without regard to case, as RFC 3986 says.
    package static func validate(url: String, title: String) -> InteractorError? {
        if isBlank(url) { return .validation("URL cannot be empty") }
        if isBlank(title) { return .validation("Title cannot be empty") }
        if !hasWebScheme(url) { return .validation("only http and https URLs can be saved") }
        return nil
    }

    private static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }

    /// `http://…` or `https://…`, any case, after leading white space.
    private static func hasWebScheme(_ url: String) -> Bool {
        let trimmed = url.drop(while: { $0.isWhitespace }).lowercased()
        return trimmed.hasPrefix("http://") || trimmed.hasPrefix("https://")
    }
}
