/// The kinds of message an action can declare, as in the original.
public enum ProgressMessageType: String, Sendable, CaseIterable, Hashable {
    /// Shown while the interactor runs (given to show).
    case working
    /// Given to hide when it succeeded.
    case success
    /// Given to hide when it failed (a validation error's text replaces it).
    case failure
}

/// An action's messages by kind.
public typealias ProgressMessages = [ProgressMessageType: String]

/// The empty message: the indicator without text (a working message), or
/// nothing to read (a success or failure message: the presenter hides at once).
public let NoProgressMessage = ""
