import PresenterABI

/// An ABI version, `major.minor`.
public struct ABIVersion: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// A different major is a different ABI: not loaded.
    public let major: UInt16
    /// Versions of one major only add, at the end of structs.
    public let minor: UInt16
    /// The version `major.minor`.
    public init(major: UInt16, minor: UInt16) { self.major = major; self.minor = minor }
    /// The version this host implements.
    public static let host = ABIVersion(major: UInt16(PRESENTER_ABI_MAJOR), minor: UInt16(PRESENTER_ABI_MINOR))
    /// `1.0`.
    public var description: String { "\(major).\(minor)" }
    /// Ordered by major, then minor.
    public static func < (a: ABIVersion, b: ABIVersion) -> Bool { (a.major, a.minor) < (b.major, b.minor) }
}
