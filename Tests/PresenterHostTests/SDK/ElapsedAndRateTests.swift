import PresenterSDK
import Testing

/// The SDK's texts for a duration and a rate (ABI 1.4's time, shown alike
/// by every presenter).
@Suite("SDK: elapsed time and rate texts")
struct ElapsedAndRateTests {
    @Test(arguments: [
        (0.0, "0s"), (4.99, "4s"), (59.9, "59s"), (60, "1m00s"), (65, "1m05s"), (3599, "59m59s"),
        (3600, "1h00m"), (3720, "1h02m"), (93_600, "26h00m"), (-3, "0s"), (Double.nan, "0s"),
        (Double.infinity, "1000000h00m"),
    ])
    func elapsed(seconds: Double, text: String) {
        #expect(Elapsed.format(seconds: seconds) == text)
    }

    @Test func elapsedBetweenTwoClockReadings() {
        #expect(Elapsed.format(from: 1_000_000_000, to: 66_500_000_000) == "1m05s")
        #expect(Elapsed.format(from: 5, to: 4) == "0s")
    }

    /// The text changes at each whole second since the start, so a
    /// presenter asks for a frame then, not every frame.
    @Test func theNextChangeIsTheNextWholeSecond() {
        let start: UInt64 = 7_000_000_000
        #expect(Elapsed.nextChange(from: start, after: start) == start + 1_000_000_000)
        #expect(Elapsed.nextChange(from: start, after: start + 2_400_000_000) == start + 3_000_000_000)
        #expect(Elapsed.nextChange(from: start, after: start - 1) == start)
        #expect(Elapsed.nextChange(from: .max - 10, after: .max - 5) == .max)
    }

    @Test(arguments: [
        (0.25, false, "0.25/s"), (12.345, false, "12.3/s"), (456.4, false, "456/s"), (9_999, false, "9999/s"),
        (12_345, false, "12.3k/s"), (2_500_000, false, "2.5M/s"), (0, false, "0/s"), (0.001, false, "<0.01/s"),
        (-1, false, "?/s"), (Double.nan, false, "?/s"), (0.015, true, "1.5%/s"), (0.1, true, "10%/s"),
    ])
    func rate(value: Double, ofFraction: Bool, text: String) {
        #expect(Rate.format(perSecond: value, ofFraction: ofFraction) == text)
    }
}
