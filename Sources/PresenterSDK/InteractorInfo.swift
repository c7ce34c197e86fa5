import PresenterABI

/// What the host knows of the interactor (the running operation) a show,
/// hide or progress call is about. A copy: keep it as long as you like.
public struct InteractorInfo: Sendable, Hashable {
    /// The interactor's type, e.g. "GetWebTitleInteractor".
    public var typeName: String
    /// The action it performs, e.g. "get-title".
    public var action: String
    /// Unique among the host process's interactors; a hide carries the id of
    /// the show it ends.
    public var id: UInt64
    /// The completed fraction in 0...1, or `nil` when unknown.
    public var progress: Double?
    /// The working message the work reported since show, which replaces
    /// show's; `nil` while show's stands (and from hosts before ABI 1.1).
    public var message: String?

    /// An interactor description, e.g. to pass a changed one to a base presenter.
    public init(typeName: String, action: String, id: UInt64, progress: Double? = nil, message: String? = nil) {
        self.typeName = typeName; self.action = action; self.id = id; self.progress = progress
        self.message = message
    }

    /// Copies the host's struct, reading only the fields its size says exist.
    init(_ raw: UnsafePointer<presenter_interactor>) {
        let c = raw.pointee
        typeName = c.type_name.map { String(cString: $0) } ?? ""
        action = c.action.map { String(cString: $0) } ?? ""
        id = c.id
        let progressEnd = MemoryLayout<presenter_interactor>.offset(of: \.progress)! + MemoryLayout<Double>.size
        progress = Int(c.struct_size) >= progressEnd && c.progress >= 0 ? min(c.progress, 1) : nil
        let messageEnd =
            MemoryLayout<presenter_interactor>.offset(of: \.message)! + MemoryLayout<UnsafePointer<CChar>?>.size
        message = Int(c.struct_size) >= messageEnd ? c.message.map { String(cString: $0) } : nil
    }

    /// Runs `body` with this interactor as a C struct valid during the call.
    func withUnsafeCStruct<R>(_ body: (UnsafePointer<presenter_interactor>) -> R) -> R {
        typeName.withCString { typeName in
            action.withCString { action in
                withOptionalCString(message) { message in
                    var c = presenter_interactor(
                        struct_size: UInt32(MemoryLayout<presenter_interactor>.size), reserved: 0,
                        type_name: typeName, action: action, id: id, progress: progress ?? -1, message: message)
                    return withUnsafePointer(to: &c, body)
                }
            }
        }
    }
}
