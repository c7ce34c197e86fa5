import HostPlugins
import HostSandbox
import HostSystem
import HostText

extension PresenterProcess {
    /// Handles what the process sends until the reply to request `number`
    /// has come, and returns its result. Replies to earlier requests (the
    /// start, loading, attach) are checked on the way.
    func awaitReply(_ number: UInt32) throws(PresenterFailure) -> PresenterMessage.Result {
        let running = try started()
        try confirmExec()
        while true {
            let head = pending.first
            let hook = replyWait.blamed(head)
            let budget = replyWait.awaitingHello ? configuration.startTimeout : head?.budget ?? 0
            let since = max(head?.sentAt ?? lastAnswer, lastAnswer)
            // Starting and loading get more than a hook, but not once the run
            // is ending: ``hurry()`` may come from another thread meanwhile,
            // so such a wait looks again every 50 ms.
            let long = budget > configuration.hookTimeout
            let deadline = { [self] () -> Double in
                guard long, let hurriedAt = hurriedAt.withLock({ $0 }) else { return since + budget }
                return min(since + budget, hurriedAt + configuration.hookTimeout)
            }
            guard let message = try next(running, until: deadline, slices: long, hook: hook) else { continue }
            let action = replyWait.receive(
                message, head: head, isPastDeadline: { Self.now() > deadline() }, isKnown: knownPresenters.contains,
                hasView: { viewPresenters[$0] != nil })
            switch action {
            case .hello(let report):
                sandbox = report
                // Said once a process, in the presenter log (`-v`): the host's words, not the presenter's.
                delegate?.engine(
                    log: PresenterLogEntry(
                        level: report.isComplete ? .info : .warning, presenterId: nil,
                        message: "sandbox: " + report.summary))
                lastAnswer = Self.now()
            case .log(var entry):
                entry.presenterId = entry.presenterId ?? currentPresenter
                entry.message = Self.cut(entry.message, to: HostServices.maxLogBytes)
                delegate?.engine(log: entry)
            case .element(let view, let name, let operation):
                delegate?.engine(view: view, element: name, operation: operation)
            case .reply(let reply, let request):
                pending.removeFirst()
                lastAnswer = Self.now()
                frameRequests = reply.frameRequests
                try check(reply.result, of: request)
                if request.sequence == number { return reply.result }
            case .violation(let hook, let detail):
                throw stop(in: hook, .protocolViolation(detail))
            case .hung(let hook):
                throw stop(in: hook, hang(in: hook))
            }
        }
    }

    /// `text` cut to at most `bytes` bytes of UTF-8, at a character's end.
    static func cut(_ text: String, to bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: bytes)
        while end > text.startIndex && !text.unicodeScalars.indices.contains(end) { end = text.utf8.index(before: end) }
        return String(text[..<end])
    }

    /// Throws for an earlier request whose result means the presenter
    /// cannot go on (a file that did not load, a failed create), or that
    /// is not what the request asked for: a load is answered with the
    /// handles the host numbered, or refused for a file or presenter it named.
    func check(_ result: PresenterMessage.Result, of request: Pending) throws(PresenterFailure) {
        if let load = request.load {
            switch result {
            case .loaded(let handles) where handles == load.handles:
                return
            case .refused(.file(let path, let failure)) where load.files.contains(where: { $0.path == path }):
                throw stop(in: nil, .couldNotStart(.file(PluginLoadError(path: path, failure: .loading(failure)))))
            case .refused(.presenter(let path, let id))
            where load.files.contains(where: { $0.path == path && $0.presenters.contains { $0.id == id } }):
                throw stop(in: nil, .couldNotStart(.presenterMissing(path: path, id: id)))
            default:
                throw stop(in: .load, .protocolViolation(.wrongAnswer(to: .load, expected: .handles)))
            }
        }
        switch result {
        case let .createFailed(presenterId, status, message):
            guard request.isAttach, knownPresenters.contains(presenterId) else {
                throw stop(in: request.hook, .protocolViolation(.unknownPresenter))
            }
            currentPresenter = presenterId
            throw stop(
                in: .create,
                .createFailed(status: status, message: message.map { Self.cut($0, to: HostServices.maxLogBytes) }))
        case .outcome(let outcome):
            guard outcome.hook.map(Hook.withOutcome.contains) ?? true,
                outcome.presenterId.isEmpty || knownPresenters.contains(outcome.presenterId)
            else {
                throw stop(
                    in: request.hook, .protocolViolation(.unaskedOutcome))
            }
        case .done, .drawing, .keyUsed, .loaded, .refused:
            break
        }
        if case .done = result { return }
        guard !request.isAttach && request.hook?.isStartUp != true else {
            throw stop(in: request.hook, .protocolViolation(.wrongAnswer(to: nil, expected: .done)))
        }
    }

    /// The next message (``PresenterChannel/next(until:slices:)``); its
    /// failures blamed on `hook`.
    func next(
        _ running: Running, until deadline: (() -> Double)?, slices: Bool = false, hook: Hook?
    ) throws(PresenterFailure) -> PresenterMessage.Incoming? {
        do throws(PresenterChannel.Failure) {
            return try running.channel.next(until: deadline, slices: slices)
        } catch {
            switch error {
            case .ended: throw reapEnded(in: hook)
            case .timedOut: throw stop(in: hook, hang(in: hook))
            case .malformed(let detail): throw stop(in: hook, .protocolViolation(.malformedMessage(detail)))
            }
        }
    }
}
