import Glibc
import PresenterABI
import Testing
@testable import HostPlugins

/// The growth rule: the host never reads a descriptor field past `struct_size`.
///
/// ABI 1.0 is the only version, so no real plugin can declare a smaller
/// descriptor that the host accepts. These tests place descriptors at the very
/// end of readable memory, followed by a page that faults on any access: a
/// read past `struct_size` would crash the test process.
@Suite struct LoaderStructSizeTests {
    /// Two pages, the second inaccessible.
    final class GuardedMemory {
        let base: UnsafeMutableRawPointer
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

        init() throws {
            let mapping = mmap(nil, 2 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            base = try #require(mapping == MAP_FAILED ? nil : mapping)
            try #require(mprotect(base + pageSize, pageSize, PROT_NONE) == 0)
        }

        deinit { munmap(base, 2 * pageSize) }

        /// The address `size` bytes before the guard page.
        func tail(_ size: Int) -> UnsafeMutableRawPointer { base + pageSize - size }
    }

    @Test func fieldsPastStructSizeAreAbsentAndNeverTouched() throws {
        let memory = try GuardedMemory()
        let header = memory.tail(8)
        header.storeBytes(of: UInt32(8), as: UInt32.self)
        header.storeBytes(of: UInt16(1), toByteOffset: 4, as: UInt16.self)
        header.storeBytes(of: UInt16(0), toByteOffset: 6, as: UInt16.self)

        let descriptor = BoundedStruct<presenter_descriptor>(UnsafeRawPointer(header))
        #expect(descriptor.declaredSize == 8)
        #expect(descriptor.field(\.abi_major) == 1)
        #expect(descriptor.field(\.abi_minor) == 0)
        #expect(descriptor.field(\.id) == nil)
        #expect(descriptor.field(\.capabilities) == nil)
        #expect(descriptor.field(\.key) == nil)
        #expect(throws: PluginLoadFailure.DescriptorProblem.tooSmall(size: 8, minimum: DescriptorReader.minimumSize)) {
            try DescriptorReader.read(UnsafeRawPointer(header), index: 0, path: "/guarded")
        }
    }

    @Test func aDescriptorTooSmallForItsVersionFieldsIsRefusedUnread() throws {
        let memory = try GuardedMemory()
        let header = memory.tail(4)
        header.storeBytes(of: UInt32(4), as: UInt32.self)
        #expect(throws: PluginLoadFailure.DescriptorProblem.tooSmall(size: 4, minimum: DescriptorReader.minimumSize)) {
            try DescriptorReader.read(UnsafeRawPointer(header), index: 0, path: "/guarded")
        }
    }

    @Test func aVersion1_0DescriptorEndingAtTheGuardPageLoads() throws {
        #expect(DescriptorReader.minimumSize == MemoryLayout<presenter_descriptor>.size)
        let memory = try GuardedMemory()
        let strings = ["guard.id", "Guarded", "1.0.0"].map { (text: String) in strdup(text)! }
        defer { strings.forEach { free($0) } }
        var value = presenter_descriptor()
        value.struct_size = UInt32(DescriptorReader.minimumSize)
        value.abi_major = UInt16(PRESENTER_ABI_MAJOR)
        value.abi_minor = UInt16(PRESENTER_ABI_MINOR)
        value.id = UnsafePointer(strings[0])
        value.name = UnsafePointer(strings[1])
        value.version = UnsafePointer(strings[2])
        value.capabilities = UInt64(PRESENTER_CAP_MESSAGES)
        let slot = memory.tail(DescriptorReader.minimumSize)
        slot.initializeMemory(as: presenter_descriptor.self, to: value)

        let loaded = try DescriptorReader.read(UnsafeRawPointer(slot), index: 0, path: "/guarded")
        let plugin = loaded.plugin
        #expect(plugin.id == "guard.id")
        #expect(plugin.name == "Guarded")
        #expect(plugin.capabilities == .messages)
        #expect(loaded.hooks.presentNames == [] && plugin.hookNames == [])
    }
}
