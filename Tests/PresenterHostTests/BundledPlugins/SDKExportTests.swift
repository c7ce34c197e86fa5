import Foundation
import PresenterABI
import Testing

/// What PresenterSDK puts into every plugin: the entry point, descriptors in
/// stable storage, NULL hooks where a presenter implements none, and errors
/// turned into status codes. Checked on the real built libraries.
@Suite struct SDKExportTests {
    static let libraries = ["MBHud", "NetActivity", "AddBookmark", "Line", "SwiftExamplePresenter"]

    @Test(arguments: libraries)
    func entryPointListsOneDescriptorForThisABI(_ library: String) throws {
        let plugin = try LoadedPlugin.load(library)
        #expect(plugin.descriptors.count == 1)
        let d = plugin.descriptor.pointee
        #expect(d.struct_size == UInt32(MemoryLayout<presenter_descriptor>.size))
        #expect(d.abi_major == UInt16(PRESENTER_ABI_MAJOR) && d.abi_minor == UInt16(PRESENTER_ABI_MINOR))
        #expect(d.create != nil && d.destroy != nil)
    }

    @Test func descriptorAndStringsStayAtTheSameAddress() throws {
        let handle = try #require(dlopen(TestPaths.library("SwiftExamplePresenter").path, RTLD_NOW | RTLD_LOCAL))
        let entry = unsafeBitCast(try #require(dlsym(handle, PRESENTER_ENTRY_SYMBOL)), to: presenter_descriptor_fn.self)
        let first = try #require(entry(0)), second = try #require(entry(0))
        #expect(first == second)
        #expect(first.pointee.id == second.pointee.id)
        #expect(entry(1) == nil && entry(UInt32.max) == nil)
    }

    @Test func exampleDeclaresOnlyTheHooksItImplements() throws {
        let d = try LoadedPlugin.load("SwiftExamplePresenter").descriptor.pointee
        #expect(String(cString: d.id) == "swift-example")
        #expect(String(cString: d.license) == "MIT")
        #expect(d.extends == nil)
        #expect(d.capabilities == UInt64(PRESENTER_CAP_MESSAGES))
        #expect(d.show != nil && d.hide != nil && d.render != nil)
        #expect(d.progress == nil && d.key == nil)
    }

    @Test func errorThrownFromInitFailsCreateWithItsMessage() throws {
        let plugin = try LoadedPlugin.load("SwiftExamplePresenter")
        let host = FakeHost()
        host.options = ["row": "middle"]
        #expect(
            throws: PluginInstance.CreateFailure(
                status: PRESENTER_ERR_INVALID,
                messages: ["option row=\"middle\" is not top or bottom; use one of them"])
        ) {
            try PluginInstance(plugin.descriptor, host: host)
        }
    }

    @Test func nullViewIsRefusedWithAMessage() throws {
        let presenter = try PluginInstance(try LoadedPlugin.load("MBHud").descriptor)
        let status = "T".withCString { type in
            "a".withCString { action in
                var interactor = presenter_interactor(
                    struct_size: UInt32(MemoryLayout<presenter_interactor>.size),
                    reserved: 0, type_name: type, action: action, id: 1, progress: -1, message: nil,
                    started_ns: 1, done: -1, total: -1, rate: -1, eta_s: -1)
                return presenter.descriptor.show!(presenter.instance, nil, "Saving", &interactor)
            }
        }
        #expect(status == PRESENTER_ERR_INVALID)
        #expect(presenter.host.errors == ["show: the host passed a NULL view or interactor"])
    }

    @Test func createRefusesADescriptorTheSDKDidNotMake() throws {
        let plugin = try LoadedPlugin.load("MBHud")
        var copy = plugin.descriptor.pointee  // same hooks, another address
        let host = FakeHost()
        var instance: UnsafeMutableRawPointer?
        #expect(copy.create!(&copy, host.table, host.context, &instance) == PRESENTER_ERR_INVALID)
        #expect(instance == nil)
        #expect(host.errors.count == 1)
    }
}
