/// A view of a C struct that starts with `uint32_t struct_size`, read by the
/// ABI's growth rule: a field that does not lie wholly within `struct_size`
/// bytes is absent, and its memory is never touched.
struct BoundedStruct<Layout> {
    /// The struct's first byte.
    let base: UnsafeRawPointer

    /// The `struct_size` the writer declared.
    var declaredSize: Int { Int(base.loadUnaligned(as: UInt32.self)) }

    init(_ base: UnsafeRawPointer) { self.base = base }

    /// The field at `keyPath`, or nil when it lies past `struct_size`.
    func field<Value: BitwiseCopyable>(_ keyPath: KeyPath<Layout, Value>) -> Value? {
        guard let offset = MemoryLayout<Layout>.offset(of: keyPath),
            offset + MemoryLayout<Value>.size <= declaredSize
        else { return nil }
        return base.loadUnaligned(fromByteOffset: offset, as: Value.self)
    }
}
