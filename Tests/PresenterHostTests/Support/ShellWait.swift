/// A shell command that waits until `condition` (a shell test, e.g.
/// `[ -e file ]` or `grep -q ...`) holds, checking every 50 ms: how a test's
/// command waits on the test or on the host instead of sleeping for a
/// guessed time. At most 30 s (``TestTime/scaled(_:)``), so a test that
/// failed before the condition came true does not leave its command
/// waiting for ever.
func shellWaitUntil(_ condition: String) -> String {
    "i=0; until \(condition) || [ $i -ge \(Int(TestTime.scaled(600))) ]; do sleep 0.05; i=$((i+1)); done"
}
