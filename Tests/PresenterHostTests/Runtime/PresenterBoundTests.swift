@testable import HostRuntime
import Testing

/// The presenter thread's state is checked at every access, in release
/// builds too: a get or set from another thread stops the process.
@Suite("Presenter-thread state, checked at every access")
struct PresenterBoundTests {
    @Test func aValueIsReadAndChangedOnThePresenterThread() {
        let thread = PresenterThread(name: "bound-test")
        let count = PresenterBound(0, to: thread)
        let seen = thread.sync {
            count.value += 1
            count.with { $0 += 1 }
            return count.value
        }
        #expect(seen == 2)
        thread.stop()
        // Once the thread exited, the caller stands in for it.
        #expect(count.value == 2)
        #expect(count.with { $0 } == 2)
    }

    @Test func aValueReadFromAnotherThreadStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let thread = PresenterThread(name: "bound-test")
            let count = PresenterBound(0, to: thread)
            _ = count.value
        }
    }

    @Test func aValueSetFromAnotherThreadStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let thread = PresenterThread(name: "bound-test")
            let flag = PresenterBound(false, to: thread)
            flag.value = true
        }
    }

    @Test func aValueReachedWithItsBlockFromAnotherThreadStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let thread = PresenterThread(name: "bound-test")
            let count = PresenterBound(0, to: thread)
            count.with { $0 += 1 }
        }
    }
}
