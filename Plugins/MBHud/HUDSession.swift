import PresenterSDK

/// The HUD of one view over time: which interactors run, when the HUD
/// appeared, and how it ends. Time comes in as arguments (nanoseconds on the
/// host's clock), so every rule here is a pure function of the calls.
///
/// Rules: nothing appears before the grace time has passed since the first
/// show; once visible, the HUD stays at least the minimum show time (a hide
/// that comes earlier is deferred, the spinner going on meanwhile); the HUD
/// ends with the last interactor, whose success or failure message then shows
/// for its time (or, for a failure in an interactive view, until a key).
/// An interactor that ends while others still run has its outcome shown at
/// once, briefly, with the others counted ("✔ Index fetched (+1 more)"):
/// for a success's reading time, a failure's hold (never until a key: the
/// work goes on), within the host's limit; then the HUD of the work still
/// running comes back. A later one's outcome replaces it; the last
/// interactor's ending replaces it too.
///
/// The last interactor's outcome is also kept for the view's last render
/// (``finalOutcome``): the line that stays after the host has left, drawn
/// whether the HUD showed it or not (within the grace time, after its time).
struct HUDSession {
    /// The configurable times, in nanoseconds.
    struct Options: Equatable {
        var minShow: UInt64
        var grace: UInt64
        var failureHold: UInt64
        /// The longest an outcome stays once it shows (the host ends the
        /// view after it); ``longest`` when the host sets none.
        var outcomeLimit: UInt64 = HUDSession.longest
        /// How long an interactor runs before its elapsed time shows (and
        /// its ETA and rate, with determinate progress).
        var elapsedAfter: UInt64 = 3_000_000_000
    }

    /// A running interactor.
    struct Job: Equatable {
        let id: UInt64
        var message: String
        var progress: Double?
        /// What the host measured of its time (ABI 1.4); `nil` from older hosts.
        var timing: Timing? = nil
    }

    /// An interactor's time as the host told it (``InteractorInfo``'s 1.4 fields).
    struct Timing: Equatable {
        /// When it started, on the host's clock.
        var startedAt: UInt64
        /// Units (or, without `counted`, the fraction) a second, when known.
        var rate: Double?
        /// Seconds left when the host told it, at `toldAt`.
        var eta: Double?
        /// True when the rate counts units (`42/100`), not the fraction.
        var counted: Bool
        /// When the host told it: the ETA counts down from there.
        var toldAt: UInt64
    }

    /// What the HUD shows at one time, or `nil` for nothing.
    struct Frame: Equatable {
        var content: HUDContent?
        /// When this picture changes next apart from the spinner, if ever.
        var wakeAt: UInt64?
    }

    /// How the last interactor ended.
    private struct Ending {
        let job: Job
        /// The message and mark to show; `nil` hides without one.
        let outcome: HUDContent?
        /// When the outcome replaces the spinner (after the minimum show time).
        let from: UInt64
        /// When the HUD hides; `nil` waits for a key.
        let until: UInt64?
    }

    /// The longest duration an option can set, in nanoseconds (about 36
    /// years): never reached in practice, yet any clock reading plus a few
    /// of these stays far below `UInt64.max`.
    static let longest: UInt64 = 1 << 60

    /// `milliseconds` (never negative, as the SDK reads options) in
    /// nanoseconds, capped at ``longest`` rather than overflowing.
    static func duration(milliseconds: Int) -> UInt64 {
        let (nanoseconds, overflow) = UInt64(max(milliseconds, 0)).multipliedReportingOverflow(by: 1_000_000)
        return overflow ? longest : min(nanoseconds, longest)
    }

    let options: Options
    /// Running interactors, in the order they were shown.
    private var jobs: [Job] = []
    /// When the first interactor of this HUD was shown: the spinner's start.
    private var started: UInt64?
    /// When the HUD became visible (the grace time over).
    private var visibleSince: UInt64?
    private var ending: Ending?
    /// The outcome of an interactor that ended while others run (without
    /// their count, which is the running jobs' at each frame), and until
    /// when it shows.
    private var interim: (content: HUDContent, until: UInt64)?
    /// How the last interactor ended, while none runs: a success with its
    /// message, or a failure; `nil` for a success without one.
    private(set) var finalOutcome: HUDContent?

    init(options: Options) {
        self.options = options
    }

    mutating func show(id: UInt64, message: String, progress: Double?, timing: Timing? = nil, at now: UInt64) {
        settle(at: now)
        ending = nil  // new work takes over a HUD that was ending
        finalOutcome = nil
        if started == nil { started = now }
        if let index = jobs.firstIndex(where: { $0.id == id }) {
            jobs[index].message = message
            jobs[index].progress = progress
            jobs[index].timing = timing
        } else {
            jobs.append(Job(id: id, message: message, progress: progress, timing: timing))
        }
    }

    /// A new fraction (`nil`: unknown again) and, when `message` is given,
    /// a working message that replaces the one show gave.
    mutating func progress(
        id: UInt64, progress: Double?, message: String? = nil, timing: Timing? = nil, at now: UInt64
    ) {
        settle(at: now)
        guard let index = jobs.firstIndex(where: { $0.id == id }) else { return }
        jobs[index].progress = progress
        if let message { jobs[index].message = message }
        if let timing { jobs[index].timing = timing }
    }

    /// Ends interactor `id`; an id that is not running is ignored.
    /// `failureText` is `nil` on success; `holdUntilKey` keeps a failure until ``dismiss(at:)``.
    mutating func hide(id: UInt64, message: String?, failureText: String?, holdUntilKey: Bool, at now: UInt64) {
        settle(at: now)
        guard let index = jobs.firstIndex(where: { $0.id == id }) else { return }
        let job = jobs.remove(at: index)
        guard jobs.isEmpty else {
            showInterim(message: message, failureText: failureText, at: now)
            return
        }
        interim = nil
        finalOutcome = Self.outcome(message: message, failureText: failureText)
        guard let visibleSince else {
            reset()  // ended within the grace time: never drawn
            return
        }
        let from = max(now, visibleSince.adding(options.minShow))
        guard let message, !message.isEmpty else {
            ending = Ending(job: job, outcome: nil, from: from, until: from)
            return
        }
        if let failureText {
            let outcome = HUDContent(failure: message, failureText: failureText)
            ending = Ending(
                job: job, outcome: outcome, from: from,
                until: holdUntilKey ? nil : from.adding(min(options.failureHold, options.outcomeLimit)))
        } else {
            ending = Ending(
                job: job, outcome: HUDContent(success: message), from: from,
                until: from.adding(min(Self.readingTime(message), options.outcomeLimit)))
        }
    }

    /// What stays of an ending: the cross and the message (or only the
    /// failure's text) for a failure, the check mark and the message for a
    /// success that has one, else nothing.
    private static func outcome(message: String?, failureText: String?) -> HUDContent? {
        if let failureText { return HUDContent(failure: message ?? "", failureText: failureText) }
        guard let message, !message.isEmpty else { return nil }
        return HUDContent(success: message)
    }

    /// As the original: 1.5 s plus 10 ms for each character of the message.
    private static func readingTime(_ message: String) -> UInt64 {
        1_500_000_000 + 10_000_000 * UInt64(min(message.count, 1 << 30))
    }

    /// An interactor ended while others run: its outcome shows now, for a
    /// while, with the others counted. Nothing while the HUD is not visible
    /// yet (within the grace time nothing was drawn of it), nor for a hide
    /// without a message.
    private mutating func showInterim(message: String?, failureText: String?, at now: UInt64) {
        guard visibleSince != nil, let message, !message.isEmpty else { return }
        let outcome: HUDContent
        let lasting: UInt64
        if let failureText {
            outcome = HUDContent(failure: message, failureText: failureText)
            lasting = options.failureHold
        } else {
            outcome = HUDContent(success: message)
            lasting = Self.readingTime(message)
        }
        interim = (outcome, now.adding(min(lasting, options.outcomeLimit)))
    }

    /// A key was pressed: dismisses a failure that waits for one. Returns
    /// whether it did (the key is then used up).
    mutating func dismiss(at now: UInt64) -> Bool {
        settle(at: now)
        guard let ending, ending.until == nil, now >= ending.from else { return false }
        reset()
        return true
    }

    /// What to draw at `now`.
    mutating func frame(at now: UInt64) -> Frame {
        settle(at: now)
        guard let started else { return Frame(content: nil, wakeAt: nil) }
        guard visibleSince != nil else { return Frame(content: nil, wakeAt: started.adding(options.grace)) }
        if let ending, now >= ending.from, let outcome = ending.outcome {
            return Frame(content: outcome, wakeAt: ending.until)
        }
        if let interim {
            let wake = ending.map { min($0.from, interim.until) } ?? interim.until
            return Frame(content: interim.content.counting(others: jobs.count), wakeAt: wake)
        }
        // With no job left, the last one's hide is deferred: keep showing it.
        let shown = jobs.isEmpty ? ending.map { [$0.job] } ?? [] : jobs
        var working = HUDContent(working: shown, since: started)
        var wakeAt = ending?.from
        if let timing = working.timing {
            let (status, change) = Self.status(of: timing, at: now, after: options.elapsedAfter)
            working.status = status
            wakeAt = min(wakeAt ?? change, change)
        }
        return Frame(content: working, wakeAt: wakeAt)
    }

    /// The time line of a job started at `timing.startedAt`, most important
    /// first (the elapsed time, then the ETA, then the rate), once it has
    /// run `threshold`; and when it next changes: the threshold, then each
    /// whole second of the elapsed time.
    static func status(of timing: Timing, at now: UInt64, after threshold: UInt64) -> ([String], UInt64) {
        let shownFrom = timing.startedAt.adding(threshold)
        guard now >= shownFrom else { return ([], shownFrom) }
        var parts = [Elapsed.format(from: timing.startedAt, to: now)]
        if let eta = timing.eta {
            let since = now > timing.toldAt ? Double(now - timing.toldAt) / 1e9 : 0
            parts.append("ETA " + Elapsed.format(seconds: max(eta - since, 0)))
        }
        if let rate = timing.rate { parts.append(Rate.format(perSecond: rate, ofFraction: !timing.counted)) }
        return (parts, Elapsed.nextChange(from: timing.startedAt, after: now))
    }

    /// Applies the transitions that time alone makes: the grace time passing,
    /// and an ended HUD's time running out.
    private mutating func settle(at now: UInt64) {
        if let started, visibleSince == nil, now >= started.adding(options.grace) {
            visibleSince = started.adding(options.grace)
        }
        if let ending, let until = ending.until, now >= until {
            reset()
        }
        if let interim, now >= interim.until {
            self.interim = nil
        }
    }

    private mutating func reset() {
        jobs = []
        started = nil
        visibleSince = nil
        ending = nil
        interim = nil
    }
}

private extension UInt64 {
    /// `self + other`, saturating at `UInt64.max`: a time so far ahead that
    /// it never comes, rather than a trap in someone else's process.
    func adding(_ other: UInt64) -> UInt64 {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? .max : sum
    }
}
