import Dispatch

/// Waits, while a background job keeps its view off the terminal, for the
/// terminal to make it the foreground job again, then calls a handler once.
///
/// `fg` on a background job that is running (`run … &`, or after `bg`)
/// sends no SIGCONT: only the terminal's foreground process group changes,
/// and nothing says so. A view that animates learns it at its next frame;
/// one that does not (a success check mark standing still) would stay off
/// the screen, so the group is polled, a few times a second, only while such
/// a view waits in the background.
// Unchecked: its one stored property, a dispatch timer, is thread-safe in libdispatch, which does not say so.
package final class ForegroundWatch: @unchecked Sendable {
    /// How often the foreground is checked, in seconds.
    static let interval = 0.2

    private let timer: DispatchSourceTimer

    /// Starts polling `isForeground` (on a global queue) and calls `handler`
    /// there once it returns true.
    package init(isForeground: @escaping @Sendable () -> Bool, then handler: @escaping @Sendable () -> Void) {
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval)
        timer.setEventHandler { [timer] in
            guard isForeground() else { return }
            timer.cancel()
            handler()
        }
        timer.resume()
    }

    /// True until the handler was called or ``cancel()``.
    package var isWaiting: Bool { !timer.isCancelled }

    /// Stops polling (a handler call already under way still completes).
    package func cancel() { timer.cancel() }
}
