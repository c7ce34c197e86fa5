import Synchronization
import Testing

@testable import HostSystem

/// The flush repair's steps on a state word of the test's own (the shared
/// one is every in-process backend's): who answers a Ctrl-C that discarded
/// the region's last bytes, and when.
@Suite struct TerminalFlushRepairTests {
    @Test func disarmedNothingIsAnswered() {
        let state = Atomic<UInt8>(0)
        let handlerWrites = TerminalFlushRepair.answersAtOnce(state)
        #expect(!handlerWrites)
        TerminalFlushRepair.beginWriting(state)
        _ = TerminalFlushRepair.lastBytesWritten(state)
        TerminalFlushRepair.disarm(state)  // a region drawn again
        let handlerWritesAfterDisarm = TerminalFlushRepair.answersAtOnce(state)
        #expect(!handlerWritesAfterDisarm)
    }

    /// The handler must not write among the writer's bytes (after an `ESC [`
    /// a `show` would break both sequences): it marks the signal, and the
    /// writer answers it once its bytes are out.
    @Test func aSignalWhileTheLastBytesAreWrittenIsAnsweredByTheWriterAfterThem() {
        let state = Atomic<UInt8>(0)
        TerminalFlushRepair.beginWriting(state)
        let handlerWritesAmongThem = TerminalFlushRepair.answersAtOnce(state)
        #expect(!handlerWritesAmongThem)
        let handlerWritesForASecondKey = TerminalFlushRepair.answersAtOnce(state)
        #expect(!handlerWritesForASecondKey)  // a second key: still the writer's, once
        let writerAnswers = TerminalFlushRepair.lastBytesWritten(state)
        #expect(writerAnswers)
        let handlerWritesOnceArmed = TerminalFlushRepair.answersAtOnce(state)
        #expect(handlerWritesOnceArmed)  // armed: the handler answers from now on
    }

    @Test func afterTheLastBytesTheHandlerAnswersAtOnceAndTheWriterHasNothingToDo() {
        let state = Atomic<UInt8>(0)
        TerminalFlushRepair.beginWriting(state)
        let writerAnswers = TerminalFlushRepair.lastBytesWritten(state)
        #expect(!writerAnswers)
        let handlerWrites = TerminalFlushRepair.answersAtOnce(state)
        #expect(handlerWrites)
        let handlerWritesAgain = TerminalFlushRepair.answersAtOnce(state)
        #expect(handlerWritesAgain)
    }

    /// Handlers and the writer on threads of their own: every signal is
    /// answered, by the handler or by the writer, whatever the interleaving.
    @Test func noSignalIsLostBetweenTheWriterAndTheHandlers() async {
        final class Word: Sendable { let state = Atomic<UInt8>(0) }
        for _ in 0..<2_000 {
            let word = Word()
            TerminalFlushRepair.beginWriting(word.state)
            let answers = await withTaskGroup(of: Int.self) { group in
                group.addTask { TerminalFlushRepair.answersAtOnce(word.state) ? 1 : 0 }  // the handler
                group.addTask { TerminalFlushRepair.lastBytesWritten(word.state) ? 1 : 0 }  // the writer
                return await group.reduce(0, +)
            }
            // Exactly one of them answers the one signal.
            #expect(answers == 1)
        }
    }
}
