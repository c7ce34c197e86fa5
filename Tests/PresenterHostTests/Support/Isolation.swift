import FoundationEssentials
import PresenterHost
import Testing

/// Where a screen test runs its presenter.
enum Isolation: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inProcess = "in process", presenterProcess = "in a presenter process"
    var testDescription: String { rawValue }

    var runtime: PresenterRuntime.Isolation {
        switch self {
        case .inProcess: return .inProcess
        case .presenterProcess:
            // A generous budget: these tests are about pictures, and a loaded CI machine is slow.
            return .presenterProcess(PresenterProcessConfiguration(executable: TestPaths.binary.path, hookTimeout: 10))
        }
    }
}
