import Foundation
@testable import HostSystem
import Synchronization
import Testing

/// ``QueuedWriter``: the producer never waits, and the end waits for the
/// reader only while it takes something, and never longer than its limit
/// (issue 37, "every wait ends").
@Suite("queued writer")
struct QueuedWriterTests {
    @Test func everythingQueuedIsWrittenInOrder() {
        let written = LockedValue<[[UInt8]]>([])
        let writer = QueuedWriter(name: "test-writer") { record in
            written.withLock { $0.append(record) }
            return true
        }
        for index in 0..<100 { writer.push([UInt8(index)]) }
        #expect(writer.drain(stalledAfter: 30, atMost: 60))
        #expect(Array(written.withLock { $0 }.joined()) == (0..<100).map { UInt8($0) })
    }

    /// The records queued while the writer wrote come in its next call,
    /// together: 100 event lines above a terminal region are one redraw,
    /// not 100 (a run ended half a minute after its command). A call takes
    /// 64 KiB at most, unless one record is longer.
    @Test func theRecordsQueuedMeanwhileComeInOneCallOf64KiBAtMost() {
        let release = DispatchSemaphore(value: 0)
        let calls = LockedValue<[Int]>([])
        let writer = QueuedWriter(name: "test-writer") { batch in
            let first = calls.withLock {
                $0.append(batch.count)
                return $0.count == 1
            }
            if first { release.wait() }
            return true
        }
        writer.push([0])
        while calls.withLock({ $0.isEmpty }) { sched_yield() }  // the writer holds the first record
        for _ in 0..<100 { writer.push([1, 2]) }
        for _ in 0..<3 { writer.push([UInt8](repeating: 3, count: 40 << 10)) }
        writer.push([UInt8](repeating: 4, count: 100 << 10))
        release.signal()
        #expect(writer.drain(stalledAfter: 30, atMost: 60))
        let expected: [Int] = [1, 200 + 40 * 1024, 40 * 1024, 40 * 1024, 100 * 1024]
        #expect(calls.withLock { $0 } == expected)
    }

    @Test func pastTheBoundRecordsAreDroppedAndCounted() {
        let release = DispatchSemaphore(value: 0)
        let writer = QueuedWriter(name: "test-writer", bound: 10) { _ in
            release.wait()
            return true
        }
        // The first is taken by the writer (or queued); the queue then holds 10 bytes at most.
        let accepted = (0..<50).filter { _ in writer.push([0, 0]) }.count
        #expect(accepted <= 6)
        #expect(writer.takeDropped() == 50 - accepted)
        #expect(writer.push([1], always: true))
        for _ in 0..<accepted + 1 { release.signal() }
        #expect(writer.drain(stalledAfter: 30, atMost: 60))
    }

    /// A reader that takes a call's records every 50 ms never stalls for
    /// the patience of 10 s, yet the end gives up at its limit in all: 200
    /// records of 40 KiB, one a call, would take 10 s.
    @Test func aTricklingReaderHoldsTheEndNoLongerThanItsLimit() {
        let taken = Atomic<Int>(0)
        let writer = QueuedWriter(name: "test-writer") { _ in
            usleep(50_000)  // the reader's pace, not a synchronisation
            taken.add(1, ordering: .relaxed)
            return true
        }
        for _ in 0..<200 { writer.push([UInt8](repeating: 0, count: 40 << 10), always: true) }
        let started = ContinuousClock.now
        #expect(!writer.drain(stalledAfter: 10, atMost: 0.5))
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(450))
        #expect(waited < .seconds(5), "the end waited \(waited)")
        #expect(taken.load(ordering: .relaxed) < 200)
    }

    /// A reader that takes nothing: the end gives up after the patience.
    @Test func aStoppedReaderHoldsTheEndForItsPatienceOnly() {
        let release = DispatchSemaphore(value: 0)
        let writer = QueuedWriter(name: "test-writer") { _ in
            release.wait()
            return true
        }
        writer.push([0])
        writer.push([1])
        let started = ContinuousClock.now
        #expect(!writer.drain(stalledAfter: 0.3, atMost: 60))
        #expect(ContinuousClock.now - started < .seconds(10))
        release.signal()
        release.signal()
    }
}
