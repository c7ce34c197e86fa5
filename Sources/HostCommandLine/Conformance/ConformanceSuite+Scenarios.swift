import HostEngine
import HostText
import PresenterABI

/// The scenarios of ``ConformanceSuite``: each puts one presenter through
/// one kind of use, in a session of its own, and notes what went wrong.
extension ConformanceSuite {
    /// Checks a status-returning hook's outcome.
    private static func expectOK(_ outcome: HookOutcome, _ situation: String, _ findings: inout CheckFindings) {
        guard outcome.failed else { return }
        let message = outcome.message.map { ": \(PrintableText.escaping($0))" } ?? ""
        findings.fail(
            "\(outcome.presenterId).\(outcome.hook?.rawValue ?? "a hook") returned status \(outcome.status) for \(situation)\(message)",
            fix: "return PRESENTER_OK for every valid call; an error status is for a failure of the presenter itself")
    }

    /// `create-destroy`: 32 views attached, each shown, drawn and hidden,
    /// detached in reverse, then one view attached and detached 32 times.
    func createDestroy(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        let views = (1...32).map { ViewID($0) }
        try session.engine.attach(views[0], chain: session.chain, elements: CheckSession.elements)
        try session.engine.setGeometry(Self.defaultGeometry)
        for view in views.dropFirst() {
            try session.engine.attach(view, chain: session.chain, elements: CheckSession.elements)
        }
        for view in views {
            let interactor = session.interactor()
            Self.expectOK(
                try session.show("Instance \(view)", interactor, view: view), "one of 32 instances", &findings)
            try session.render(view: view)
            Self.expectOK(try session.hide(nil, interactor, view: view), "one of 32 instances", &findings)
        }
        for view in views.reversed() { try session.detach(view) }
        for _ in 0..<32 {
            try session.engine.attach(100, chain: session.chain, elements: CheckSession.elements)
            try session.detach(100)
        }
    }

    /// `messages`: a show and a hide with each of ``messages``.
    func messages(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(geometry: Self.defaultGeometry)
        for (label, text) in Self.messages {
            let interactor = session.interactor()
            Self.expectOK(try session.show(text, interactor), "\(label) message", &findings)
            try session.render()
            try session.render(after: 100_000_000)
            Self.expectOK(try session.hide(text, interactor), "\(label) message", &findings)
            try session.render()
            try session.render(after: 10_000_000_000)
        }
        try session.detach()
    }

    /// `failure`: hides after a failure, with a message, without one, and
    /// with an empty description.
    func failure(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(geometry: Self.defaultGeometry)
        let failures: [(String?, InteractorError, String)] = [
            (
                "Could not save the bookmark",
                InteractorError(code: 1, domain: "validation", message: "URL cannot be empty"),
                "a failure with a message"
            ),
            (nil, InteractorError(code: 3, domain: "process", message: "exit status 3"), "a failure without a message"),
            ("Failed", InteractorError(code: 500, domain: "http", message: ""), "a failure with an empty description"),
        ]
        for (message, error, situation) in failures {
            let interactor = session.interactor()
            Self.expectOK(try session.show("Working", interactor), situation, &findings)
            try session.render()
            Self.expectOK(try session.hide(message, interactor, failure: error), situation, &findings)
            try session.render()
            try session.render(after: 10_000_000_000)
        }
        try session.detach()
    }

    /// `progress`: unknown, then 0, 0.5 and 1.
    func progress(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(geometry: Self.defaultGeometry)
        var interactor = session.interactor(progress: -1)
        Self.expectOK(try session.show("Downloading", interactor), "a show with unknown progress", &findings)
        try session.render()
        for value in [0, 0.5, 1] {
            interactor.progress = value
            Self.expectOK(try session.progress(interactor), "progress \(value)", &findings)
            try session.render()
        }
        Self.expectOK(try session.hide("Downloaded", interactor), "a hide after progress 1", &findings)
        try session.render(after: 10_000_000_000)
        try session.detach()
    }

    /// `view-sizes`: a show, progress and hide in each of ``sizes``, then
    /// in a view without Unicode.
    func viewSizes(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(geometry: Self.defaultGeometry)
        for (cols, rows) in Self.sizes {
            try session.engine.setGeometry(ViewGeometry(cols: cols, rows: rows, flags: Self.defaultGeometry.flags))
            var interactor = session.interactor(progress: -1)
            Self.expectOK(try session.show("Saving bookmark...", interactor), "a \(cols)x\(rows) view", &findings)
            try session.render()
            interactor.progress = 0.5
            Self.expectOK(try session.progress(interactor), "a \(cols)x\(rows) view", &findings)
            try session.render(after: 100_000_000)
            Self.expectOK(try session.hide("Bookmark saved!", interactor), "a \(cols)x\(rows) view", &findings)
            try session.render()
            try session.render(after: 10_000_000_000)
        }
        // ASCII only, as off a UTF-8 terminal.
        try session.engine.setGeometry(ViewGeometry(cols: 80, rows: 5, flags: UInt32(PRESENTER_VIEW_ANIMATED)))
        let interactor = session.interactor()
        Self.expectOK(try session.show("Saving", interactor), "a view without Unicode", &findings)
        try session.render()
        Self.expectOK(try session.hide("Saved", interactor), "a view without Unicode", &findings)
        try session.render(after: 10_000_000_000)
        try session.detach()
    }

    /// `keys`: an interactive view given keys before a show, while it
    /// runs and after a failure.
    func keys(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(
            geometry: ViewGeometry(
                cols: 80, rows: 5, flags: Self.defaultGeometry.flags | UInt32(PRESENTER_VIEW_INTERACTIVE)))
        let codes: [UInt32] = [0x61, 13, 27, 0x20, 0x1F600, 0x5D0, 0x10FFFF]
        for code in codes { _ = try session.key(code) }
        let interactor = session.interactor()
        Self.expectOK(try session.show("Saving", interactor), "an interactive view", &findings)
        for code in codes {
            _ = try session.key(code)
            try session.render()
        }
        Self.expectOK(
            try session.hide(
                "Failed", interactor, failure: InteractorError(code: 1, domain: "http", message: "HTTP 500")),
            "an interactive view", &findings)
        for code in codes {
            _ = try session.key(code)
            try session.render()
        }
        try session.detach()
    }

    /// `interactors`: 64 at once, ended in another order than they started.
    func interactors(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(geometry: Self.defaultGeometry)
        let running = (0..<64).map { session.interactor(progress: $0 % 2 == 0 ? -1 : 0) }
        for (index, interactor) in running.enumerated() {
            Self.expectOK(try session.show("Interactor \(index)", interactor), "64 interactors at once", &findings)
            if index % 8 == 0 { try session.render() }
        }
        // They end in another order than they started, some failing.
        for (index, interactor) in running.enumerated().sorted(by: { ($0.offset * 37) % 64 < ($1.offset * 37) % 64 }) {
            let failure = index % 5 == 0 ? InteractorError(code: 1, domain: "check", message: "failed") : nil
            Self.expectOK(
                try session.hide(index % 3 == 0 ? nil : "Done \(index)", interactor, failure: failure),
                "64 interactors at once", &findings)
            if index % 8 == 0 { try session.render() }
        }
        try session.render()
        try session.render(after: 10_000_000_000)
        try session.detach()
    }

    /// After the last hide, the presenter shows its outcome and then stops:
    /// a render draws nothing and it asks for no further frame.
    func done(_ session: CheckSession, _ findings: inout CheckFindings) throws(PresenterFailure) {
        try session.attach(geometry: Self.defaultGeometry)
        let interactor = session.interactor()
        Self.expectOK(try session.show("Saving", interactor), "a show", &findings)
        try session.render()
        Self.expectOK(try session.hide("Saved", interactor), "a hide", &findings)
        try session.render()
        // min-show-ms (500) + outcome-limit-ms (5000) later, the host takes the view away anyway.
        let drawing = try session.render(after: 5_500_000_000)
        if !drawing.isEmpty || session.engine.frameRequests[session.view] != nil {
            findings.warn(
                drawing.isEmpty
                    ? "it still asks for frames 5.5 s after the last hide"
                    : "it still draws 5.5 s after the last hide",
                fix: "once the outcome has shown, draw nothing and stop asking for frames (docs/ABI.md, \"Lifecycle\")")
        }
        try session.detach()
    }
}
