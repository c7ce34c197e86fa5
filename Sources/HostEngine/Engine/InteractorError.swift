/// Why an interactor failed: what the presenter's hide receives as its
/// `presenter_failure`, and what plain output prints.
public struct InteractorError: Error, Equatable, Sendable {
    /// The error code (for a command: its exit status).
    public var code: Int64
    /// The error domain, e.g. "validation", "http", "process".
    public var domain: String
    /// A human-readable description; may be empty.
    public var message: String
    /// A validation error: its `message` replaces the action's failure
    /// message in hide, as in the original.
    public var isValidation: Bool

    /// An error; `isValidation` defaults to `domain == "validation"`.
    public init(code: Int64 = 0, domain: String, message: String, isValidation: Bool? = nil) {
        self.code = code
        self.domain = domain
        self.message = message
        self.isValidation = isValidation ?? (domain == InteractorError.validationDomain)
    }

    /// The domain of validation errors.
    public static let validationDomain = "validation"

    /// A validation error with `message` (e.g. "URL cannot be empty").
    public static func validation(_ message: String) -> InteractorError {
        InteractorError(domain: validationDomain, message: message, isValidation: true)
    }
}
