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
    /// When the interactor's show began, in nanoseconds on the clock of
    /// ``Host/now``: the elapsed time is `host.now - startedAt`
    /// (``Elapsed/format(from:to:)``). `nil` from hosts before ABI 1.4.
    public var startedAt: UInt64?
    /// Units done when the work reports counts (`42/100` gives 42), else `nil`.
    public var done: Double?
    /// The total of those units (100), else `nil`.
    public var total: Double?
    /// The host's smoothed rate, a second: of ``done`` when ``total`` is
    /// known, else of the fraction (0.01 is 1 %; ``Rate/format(perSecond:ofFraction:)``
    /// writes either). `nil` until the host has two reports some time apart.
    public var rate: Double?
    /// The host's smoothed estimate of the seconds left, as of this call;
    /// `nil` without determinate progress or before the rate is known.
    public var eta: Double?

    /// An interactor description, e.g. to pass a changed one to a base presenter.
    public init(
        typeName: String, action: String, id: UInt64, progress: Double? = nil, message: String? = nil,
        startedAt: UInt64? = nil, done: Double? = nil, total: Double? = nil, rate: Double? = nil, eta: Double? = nil
    ) {
        self.typeName = typeName; self.action = action; self.id = id; self.progress = progress
        self.message = message
        self.startedAt = startedAt; self.done = done; self.total = total; self.rate = rate; self.eta = eta
    }

    /// Copies the host's struct, reading only the fields its size says exist.
    init(_ raw: UnsafePointer<presenter_interactor>) {
        let c = raw.pointee
        let size = Int(c.struct_size)
        /// True when the host's struct reaches the end of the field at `offset` of `width` bytes.
        func covers(_ field: PartialKeyPath<presenter_interactor>, _ width: Int) -> Bool {
            size >= MemoryLayout<presenter_interactor>.offset(of: field)! + width
        }
        /// A value of 1.4: known when it is a number and not negative.
        func known(_ field: KeyPath<presenter_interactor, Double>) -> Double? {
            covers(field, 8) && c[keyPath: field].isFinite && c[keyPath: field] >= 0 ? c[keyPath: field] : nil
        }
        typeName = c.type_name.map { String(cString: $0) } ?? ""
        action = c.action.map { String(cString: $0) } ?? ""
        id = c.id
        progress = covers(\.progress, 8) && c.progress >= 0 ? min(c.progress, 1) : nil
        message =
            covers(\.message, MemoryLayout<UnsafePointer<CChar>?>.size) ? c.message.map { String(cString: $0) } : nil
        startedAt = covers(\.started_ns, 8) && c.started_ns != 0 ? c.started_ns : nil
        done = known(\.done)
        total = known(\.total)
        rate = known(\.rate)
        eta = known(\.eta_s)
    }

    /// Runs `body` with this interactor as a C struct valid during the call.
    func withUnsafeCStruct<R>(_ body: (UnsafePointer<presenter_interactor>) -> R) -> R {
        typeName.withCString { typeName in
            action.withCString { action in
                withOptionalCString(message) { message in
                    var c = presenter_interactor(
                        struct_size: UInt32(MemoryLayout<presenter_interactor>.size), reserved: 0,
                        type_name: typeName, action: action, id: id, progress: progress ?? -1, message: message,
                        started_ns: startedAt ?? 0, done: done ?? -1, total: total ?? -1, rate: rate ?? -1,
                        eta_s: eta ?? -1)
                    return withUnsafePointer(to: &c, body)
                }
            }
        }
    }
}
