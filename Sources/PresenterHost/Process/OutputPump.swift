import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Reads a child's output pipe on a dispatch queue and hands every chunk to
/// a sink, in order.
///
/// `finish()` is called once the child was reaped: everything the child wrote
/// is in the pipe by then, so it drains what is left without waiting for an
/// end of file that a grandchild still holding the pipe could delay forever.
public final class OutputPump {
    private let fd: Int32
    private let queue = DispatchQueue(label: "presenter-host.output")
    private let source: DispatchSourceRead
    private let sink: ([UInt8]) -> Void
    private var open = true

    /// Starts reading `fd` (which the pump then owns and closes); `sink` is
    /// called on the pump's queue.
    public init(fd: Int32, sink: @escaping ([UInt8]) -> Void) {
        self.fd = fd
        self.sink = sink
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in self.drain() }
        // libdispatch may still watch the descriptor until the source's
        // cancellation is done: close it only then, or a reused number can
        // send its manager thread into freed memory.
        source.setCancelHandler { _ = Glibc.close(fd) }
        source.resume()
    }

    /// Reads what is left and stops (the pipe is closed once libdispatch lets
    /// go of it). Returns when the sink has seen every byte the child wrote.
    public func finish() {
        queue.sync {
            drain()
            close()
        }
    }

    /// Reads until the pipe is empty; closes it at end of file. On the queue.
    private func drain() {
        guard open else { return }
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                sink(Array(buffer[..<count]))
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                close()
                return
            } else if errno == EAGAIN {
                return
            }
        }
    }

    private func close() {
        guard open else { return }
        open = false
        source.cancel()  // its cancel handler closes fd
    }
}
