import Foundation
import PresenterABI
import PresenterHost

// A presenter built from @convention(c) hooks, with no .so: each test makes
// its own Recorder, which scripts what each presenter id does and records
// every hook call. The recorder reaches the hooks through the "recorder"
// option, so parallel tests never share state.

/// What a recorded presenter does.
struct PresenterScript {
    var extends: String?
    /// The hooks the descriptor has (others are NULL).
    var hooks: Set<String> = ["create", "destroy", "show", "hide", "progress", "render", "key"]
    /// create fails with this set_error message.
    var failCreate: String?
    /// show fails with this message.
    var failShow: String?
    /// show, hide, progress, render and key also call their base_* service.
    var callBase = false
    /// render draws this text at (0, 0) while some interactor is shown.
    var text: String?
    /// render draws these texts at (0, 0) with draw_cycle, each for
    /// `cycleInterval` ns from time 0, while some interactor is shown.
    var cycle: [String]?
    var cycleInterval: UInt64 = 100_000_000
    /// How many times render draws that cycle.
    var cycleCopies = 1
    /// render asks for the next frame this many ns after the frame's time
    /// while some interactor is shown (0: as soon as possible).
    var animateEvery: UInt64?
    /// key returns 1.
    var consumesKeys = false
    /// A hide with a failure leaves the interactor drawn (its `text`), as
    /// a failure that waits for a key does, until key returns 1.
    var holdsFailures = false
    /// Options read in create, recorded as "key=value".
    var readOptions: [String] = []
    /// In show: try to draw (must be refused) and record what draw_text returned.
    var drawsInShow = false
}

/// One hook call as seen by a presenter.
struct HookCall: Equatable, CustomStringConvertible {
    var presenter: String
    var hook: String
    var message: String? = nil
    var interactor: UInt64 = 0
    var detail: String? = nil

    var description: String {
        "\(presenter).\(hook)(\(message.map { "\"\($0)\"" } ?? "nil"), #\(interactor)\(detail.map { ", \($0)" } ?? ""))"
    }
}
