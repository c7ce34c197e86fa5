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
}
