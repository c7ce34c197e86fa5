import Foundation
import PresenterHost
import Testing
import PresenterHostTesting

/// Show and hide pairing per interactor, and the one presenter thread.
@Suite("Runtime: pairing and threads")
struct RuntimePairingTests {
    let messages: [String: ProgressMessages] = [
        ScreenletView.defaultAction: [.working: "W", .success: "S", .failure: "F"],
        "quiet": [:],
    ]

    @Test("ending twice is ignored: one hide per show")
    func endTwice() throws {
        let recorder = Recorder(["p": PresenterScript()])
        let runtime = recorder.runtime()
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        let handle = screenlet.perform(action: "a", interactorType: "T")
        handle.succeed()
        handle.succeed()
        handle.fail(InteractorError(domain: "x", message: "late"))
        #expect(handle.isEnded)
        runtime.shutdown()
        #expect(
            recorder.calls.map(\.description) == [
                "p.create(nil, #0)", "p.show(\"W\", #\(handle.id))", "p.hide(\"S\", #\(handle.id))",
                "p.destroy(nil, #0)",
            ])
    }

    @Test("no hide without a show, however the interactor ends")
    func noHideWithoutShow() throws {
        let recorder = Recorder(["p": PresenterScript()])
        let runtime = recorder.runtime()
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        screenlet.perform(action: "quiet", interactorType: "T").fail(InteractorError(domain: "x", message: "m"))
        screenlet.perform(action: "quiet", interactorType: "T").succeed()
        runtime.shutdown()
        #expect(recorder.calls.map(\.hook) == ["create", "destroy"])
    }

    @Test("progress reaches a shown interactor's presenter, clamped; never after the end")
    func progress() throws {
        let recorder = Recorder(["p": PresenterScript()])
        let runtime = recorder.runtime()
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        let handle = screenlet.perform(action: "a", interactorType: "T")
        runtime.sync {}
        // The progress hook runs at the frame the report asks for.
        handle.reportProgress(0.25)
        runtime.advance(by: 0.1)
        handle.reportProgress(7)
        runtime.advance(by: 0.1)
        handle.reportProgress(.nan)
        handle.succeed()
        handle.reportProgress(0.5)
        runtime.shutdown()
        #expect(recorder.calls.filter { $0.hook == "progress" }.map(\.detail) == ["0.25", "1.0"])
    }

    @Test("an interactor still running at shutdown gets its hide (no message, cancelled)")
    func shutdownCancels() throws {
        let recorder = Recorder(["p": PresenterScript()])
        let runtime = recorder.runtime()
        let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
        let handle = screenlet.perform(action: "a", interactorType: "T")
        runtime.shutdown()
        handle.succeed()
        #expect(
            recorder.calls.map(\.description) == [
                "p.create(nil, #0)", "p.show(\"W\", #\(handle.id))",
                "p.hide(nil, #\(handle.id), cancelled:cancelled:0)", "p.destroy(nil, #0)",
            ])
        #expect(screenlet.perform(action: "a", interactorType: "T").isEnded)
        #expect(throws: RuntimeError.shutDown) { try runtime.attach(TestView(presenter: "p")) }
    }

    @Test("many threads performing and ending at once: hooks serial on one thread, each show hidden exactly once")
    func concurrency() throws {
        let recorder = Recorder(["p": PresenterScript(text: "busy", animateEvery: 0)])
        let runtime = recorder.runtime(clock: MonotonicClock(), maxFramesPerSecond: 1000)
        let screenlets = try (0..<3).map { _ in try runtime.attach(TestView(presenter: "p", messages: messages)) }
        let threads = 8, perThread = 40
        let ids = LockedBox<[UInt64]>([])
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for index in 0..<perThread {
                let screenlet = screenlets[(thread + index) % screenlets.count]
                let handle = screenlet.perform(action: index % 5 == 0 ? "quiet" : "a", interactorType: "T\(thread)")
                ids.mutate { $0.append(handle.id) }
                if index % 3 == 0 { handle.reportProgress(0.5) }
                // End on another thread half of the time, twice sometimes.
                if index % 2 == 0 {
                    DispatchQueue.global().async {
                        handle.fail(InteractorError(domain: "x", message: "m")); handle.succeed()
                    }
                } else {
                    handle.succeed()
                }
            }
        }
        #expect(runtime.waitUntilSettled(timeout: 10))
        runtime.shutdown()

        #expect(recorder.threads.count == 1)
        #expect(!recorder.overlapped)
        let events = recorder.calls
        var shown = Set<UInt64>(), hidden = Set<UInt64>()
        for call in events {
            switch call.hook {
            case "show": #expect(shown.insert(call.interactor).inserted, "shown twice: \(call)")
            case "hide":
                #expect(shown.contains(call.interactor), "hide before show: \(call)")
                #expect(hidden.insert(call.interactor).inserted, "hidden twice: \(call)")
            case "progress": #expect(shown.contains(call.interactor) && !hidden.contains(call.interactor))
            default: break
            }
        }
        #expect(shown == hidden)
        #expect(shown.count == threads * perThread * 4 / 5)
        #expect(Set(ids.value).count == threads * perThread)
    }

    @Test("shutdown racing interactors that end on other threads: every show hidden once, no hook after destroy")
    func shutdownRace() throws {
        for _ in 0..<20 {
            let recorder = Recorder(["p": PresenterScript()])
            let runtime = recorder.runtime(clock: MonotonicClock())
            let screenlet = try runtime.attach(TestView(presenter: "p", messages: messages))
            let handles = (0..<20).map { _ in screenlet.perform(action: "a", interactorType: "T") }
            DispatchQueue.concurrentPerform(iterations: 4) { part in
                if part == 0 { runtime.shutdown(); return }
                for handle in handles where Int(handle.id % 3) == part - 1 { handle.succeed() }
            }
            let calls = recorder.calls
            #expect(calls.last?.hook == "destroy")
            #expect(calls.filter { $0.hook == "destroy" }.count == 1)
            let shows = calls.filter { $0.hook == "show" }.map(\.interactor)
            let hides = calls.filter { $0.hook == "hide" }.map(\.interactor)
            #expect(shows.count == Set(shows).count && hides.count == Set(hides).count)
            #expect(Set(shows) == Set(hides))
        }
    }
}
