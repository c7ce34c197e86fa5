import Foundation

/// Checks `condition` every 10 ms until it holds or `timeout` seconds
/// (``TestTime/scaled(_:)``) have passed; whether it held. What a test
/// waits on instead of sleeping for a guessed time.
func waitUntil(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: TestTime.scaled(timeout))
    while !condition() {
        guard Date() < deadline else { return false }
        usleep(10_000)
    }
    return true
}
