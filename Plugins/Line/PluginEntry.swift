import PresenterABI
import PresenterSDK

/// The plugin's entry point: the host enumerates its presenters through it.
@c public func presenter_plugin_descriptor(_ index: UInt32) -> UnsafePointer<presenter_descriptor>? {
    PresenterExport.descriptor(at: index, of: [LinePresenter.self])
}
