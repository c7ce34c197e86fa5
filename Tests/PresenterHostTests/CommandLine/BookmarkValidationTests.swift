import Testing
@testable import HostEngine
@testable import HostCommandLine

/// The Add Bookmark interactor's checks: the original's two messages, then
/// the scheme, in that order, as validation errors.
@Suite("Bookmarks: validation")
struct BookmarkValidationTests {
    @Test func anEmptyURLComesFirst() {
        #expect(BookmarkValidation.validate(url: "", title: "") == .validation("URL cannot be empty"))
        #expect(BookmarkValidation.validate(url: " \t", title: "T") == .validation("URL cannot be empty"))
    }

    @Test func thenAnEmptyTitle() {
        #expect(BookmarkValidation.validate(url: "ftp://x", title: "") == .validation("Title cannot be empty"))
        #expect(BookmarkValidation.validate(url: "https://x", title: "  ") == .validation("Title cannot be empty"))
    }

    @Test func thenTheScheme() {
        for url in [
            "ftp://example.com", "example.com", "file:///etc/passwd", "javascript:alert(1)", "httpx://a", "http:/a",
        ] {
            #expect(
                BookmarkValidation.validate(url: url, title: "T")
                    == .validation("only http and https URLs can be saved"), "\(url)")
        }
    }

    @Test func webURLsPass() {
        for url in ["http://example.com", "https://example.com/a?b=c", "HTTPS://EXAMPLE.COM", " https://x"] {
            #expect(BookmarkValidation.validate(url: url, title: "Example") == nil, "\(url)")
        }
    }

    @Test func theErrorsAreValidationErrors() throws {
        let error = try #require(BookmarkValidation.validate(url: "", title: "T"))
        #expect(error.isValidation)
        #expect(error.domain == InteractorError.validationDomain)
    }
}
