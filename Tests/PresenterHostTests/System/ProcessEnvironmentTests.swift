import Foundation
@testable import HostSystem
import Testing

/// The host reads its environment through `ProcessEnvironment.current`
/// (read from `environ` once, not rebuilt at each call as
/// `ProcessInfo.environment` is): it must read exactly what Foundation reads.
@Suite("The process's environment, read once")
struct ProcessEnvironmentTests {
    @Test func itReadsWhatFoundationReads() {
        let foundation = ProcessInfo.processInfo.environment
        #expect(!foundation.isEmpty)
        #expect(ProcessEnvironment.current == foundation)
    }

    /// An entry whose bytes are not UTF-8 is left out: read as U+FFFD it
    /// would be passed on to a child as another value. The first of a
    /// name given twice counts; an entry without `=` is skipped.
    @Test func anEntryThatIsNotUTF8IsLeftOut() {
        let entries: [[UInt8]] = [
            Array("HOME=/home/u".utf8), Array("LD_LIBRARY_PATH=/opt/".utf8) + [0xFF], [0xFE] + Array("X=1".utf8),
            Array("HOME=/other".utf8), Array("NOEQUALS".utf8),
        ]
        // Copied byte for byte: a String would not keep the bad bytes.
        let raw = entries.map { bytes -> UnsafeMutablePointer<CChar>? in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        }
        let array = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: raw.count + 1)
        for (index, entry) in raw.enumerated() { array[index] = entry }
        array[raw.count] = nil
        defer {
            raw.forEach { $0?.deallocate() }
            array.deallocate()
        }
        #expect(ProcessEnvironment.variables(of: array) == ["HOME": "/home/u"])
        #expect(ProcessEnvironment.variables(of: nil) == [:])
    }
}
