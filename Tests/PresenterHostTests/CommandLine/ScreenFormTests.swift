@testable import HostCommandLine
import HostRuntime
import Testing

@Suite("Screen form: the fields and the Add Bookmark form's answers to keys")
struct ScreenFormTests {
    private func type(_ text: String, into field: inout TextField) {
        for scalar in text.unicodeScalars { field.insert(String(scalar)) }
    }

    @Test("a field edits as a shell's line editor does")
    func editing() {
        var field = TextField()
        type("example.com/path", into: &field)
        #expect(field.text == "example.com/path" && field.caret == 16)
        field.moveHome()
        field.insert("https://")
        #expect(field.text == "https://example.com/path" && field.caret == 8)
        field.deleteBackward()
        #expect(field.text == "https:/example.com/path")
        field.deleteForward()
        #expect(field.text == "https:/xample.com/path")
        field.moveEnd()
        field.deleteWordBackward()
        #expect(field.text == "https:/xample.com/")
        field.deleteWordBackward()
        #expect(field.text == "https:/")
        field.moveLeft()
        field.deleteToStart()
        #expect(field.text == "/" && field.caret == 0)
        field.moveLeft()
        field.deleteBackward()
        #expect(field.caret == 0 && field.text == "/")
    }

    @Test("a paste keeps its text on one line; control characters never enter")
    func paste() {
        var field = TextField()
        field.insert("https://example.com/\r\n\u{1B}[31m\tx")
        #expect(field.text == "https://example.com/  [31m x")
        field.set(String(repeating: "a", count: TextField.maxLength + 5))
        #expect(field.text.count == TextField.maxLength)
    }

    @Test("clusters are one character: an accent typed after its letter, an emoji with its modifier")
    func clusters() {
        var field = TextField()
        type("e\u{301}👍🏽", into: &field)
        #expect(field.text.count == 2)
        #expect(field.caret == 2)
        field.deleteBackward()
        #expect(field.text == "e\u{301}")
    }

    @Test("the visible part scrolls with the caret, measured in columns")
    func scrolling() {
        var field = TextField("漢字漢字漢字")  // 12 columns
        let end = field.visible(columns: 7)
        #expect(end.text == "字漢字" && end.caretColumn == 6)
        field.moveHome()
        let start = field.visible(columns: 7)
        #expect(start.text == "漢字漢" && start.caretColumn == 0)
        field.set("short")
        #expect(field.visible(columns: 7) == ("short", 5))
    }

    @Test("the focus starts in the URL field and moves with Tab, Shift-Tab and the arrows")
    func focus() {
        var form = BookmarkForm(url: "", title: "")
        #expect(form.focus == .url)
        _ = form.handle(.tab)
        #expect(form.focus == .title)
        _ = form.handle(.tab)
        #expect(form.focus == .add, "the get-title button is skipped while the URL is empty")
        _ = form.handle(.down)
        #expect(form.focus == .url)
        _ = form.handle(.backTab)
        #expect(form.focus == .add)
        _ = form.handle(.up)
        #expect(form.focus == .title)
        var filled = BookmarkForm(url: "example.com")
        #expect(filled.focus == .url, "also when --url fills the field")
        _ = filled.handle(.tab)
        _ = filled.handle(.tab)
        #expect(filled.focus == .getTitle)
    }

    @Test("leaving the URL field fetches its title once per URL; the button fetches it again")
    func leavingFetches() {
        var form = BookmarkForm()
        for scalar in "example.com".unicodeScalars { _ = form.handle(.text(scalar)) }
        #expect(form.canGetTitle)
        #expect(form.handle(.tab) == [.getTitle(url: "example.com", explicit: false)])
        #expect(form.handle(.backTab) == [])
        #expect(form.handle(.tab) == [], "the same URL is not fetched again on every leave")
        _ = form.handle(.tab)
        #expect(form.focus == .getTitle)
        #expect(form.handle(.enter) == [.getTitle(url: "example.com", explicit: true)])
        // Whatever the outcome, leaving again does not ask again (a failure
        // would show again and again); the button does.
        _ = form.focus(on: .url)
        #expect(form.handle(.down) == [])
        _ = form.focus(on: .url)
        _ = form.handle(.text("/"))
        #expect(form.handle(.down) == [.getTitle(url: "example.com/", explicit: false)], "a changed URL is fetched")
        var empty = BookmarkForm()
        #expect(empty.handle(.tab) == [], "an empty URL fetches nothing")
    }

    @Test("a fetched title fills the field unless the user typed one; the button's always does")
    func titleFilling() {
        var form = BookmarkForm(url: "example.com")
        form.titleFetched("Example", forURL: "example.com", explicit: false)
        #expect(form.title.text == "Example")
        form.titleFetched("Newer", forURL: "example.com", explicit: false)
        #expect(form.title.text == "Newer", "a fetched title may be replaced by the next fetch")
        _ = form.focus(on: .title)
        _ = form.handle(.text("!"))
        form.titleFetched("Other", forURL: "example.com", explicit: false)
        #expect(form.title.text == "Newer!", "a typed title is kept")
        form.titleFetched("Other", forURL: "example.com", explicit: true)
        #expect(form.title.text == "Other")
        form.titleFetched("Stale", forURL: "elsewhere.org", explicit: true)
        #expect(form.title.text == "Other", "a fetch for a URL no longer in the field is dropped")
    }

    @Test("Enter presses the focused button or goes to the next field; Esc leaves")
    func requests() {
        var form = BookmarkForm(url: " example.com ", title: " Example ")
        _ = form.focus(on: .add)
        #expect(form.handle(.enter) == [.add(url: "example.com", title: "Example")])
        #expect(form.handle(.escape) == [.quit])
        _ = form.focus(on: .title)
        #expect(form.handle(.enter) == [])
        #expect(form.focus == .getTitle)
        #expect(
            form.handle(.paste("typed")) == [] && form.title.text == " Example ", "a paste on a button types nothing")
    }
}
