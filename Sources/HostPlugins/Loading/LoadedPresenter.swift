import PresenterABI

/// A presenter loaded in this process: its description, its hooks and its
/// descriptor. Made only where an engine runs presenters (the presenter
/// process's server, the in-process engine), from a resolved presenter's
/// file and index, or built in code by tests, and where a file is loaded
/// to be described (a scan helper, a pipeline without one), which keep
/// only the description; never compared (its description is the value
/// to compare).
///
/// Nothing here points into plugin memory except the hooks and the
/// descriptor, which stay valid because the host never dlcloses a library
/// that loaded.
package struct LoadedPresenter: Sendable {
    /// What it is: the description the engine was asked to run.
    package let plugin: PresenterPlugin
    /// Its hooks; `nil` where the descriptor has NULL or the field is absent.
    package let hooks: Hooks
    /// The descriptor the plugin returned, handed back to its `create` (one
    /// create function may serve several presenters and tell them apart by
    /// it). `nil` for presenters built in code (tests): create then gets NULL.
    package let descriptor: Descriptor?

    /// `plugin` with these hooks; `descriptor` is what its `create` hook
    /// gets back (nil for presenters built in code).
    package init(_ plugin: PresenterPlugin, hooks: Hooks, descriptor: UnsafePointer<presenter_descriptor>? = nil) {
        self.plugin = plugin
        self.hooks = hooks
        self.descriptor = descriptor.map(Descriptor.init)
    }

    /// The address of a plugin's descriptor (static storage of a library the
    /// host never unloads, so it may be shared between threads).
    // Safe: the pointer is to a library's static storage, never written and never unloaded.
    package struct Descriptor: @unchecked Sendable {
        /// The descriptor, as the plugin's entry point returned it.
        package let pointer: UnsafePointer<presenter_descriptor>
    }

    /// The C function pointers of a descriptor.
    // Safe: C function pointers into libraries that are never unloaded; calling them is the engine's job.
    package struct Hooks: @unchecked Sendable {
        /// The header's `create`: makes an instance for one view.
        package typealias Create =
            @convention(c) (
                UnsafePointer<presenter_descriptor>?, UnsafePointer<presenter_host>?, OpaquePointer?,
                UnsafeMutablePointer<UnsafeMutableRawPointer?>?
            ) -> presenter_status
        /// The header's `destroy`: frees an instance.
        package typealias Destroy = @convention(c) (UnsafeMutableRawPointer?) -> Void
        /// The header's `show`: an interactor started, with its working message.
        package typealias Show =
            @convention(c) (
                UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<presenter_interactor>?
            ) -> presenter_status
        /// The header's `hide`: an interactor ended, with its outcome.
        package typealias Hide =
            @convention(c) (
                UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<presenter_interactor>?,
                UnsafePointer<presenter_failure>?
            ) -> presenter_status
        /// The header's `progress`: a shown interactor reported progress.
        package typealias Progress =
            @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UnsafePointer<presenter_interactor>?) ->
            presenter_status
        /// The header's `render`: draw the frame of a time.
        package typealias Render = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UInt64) -> Void
        /// The header's `key`: a key offered; 1 when the presenter used it.
        package typealias Key = @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, UInt32) -> Int32

        /// The descriptor's `create`, or nil.
        package var create: Create?
        /// The descriptor's `destroy`, or nil.
        package var destroy: Destroy?
        /// The descriptor's `show`, or nil (a base's is used).
        package var show: Show?
        /// The descriptor's `hide`, or nil (a base's is used).
        package var hide: Hide?
        /// The descriptor's `progress`, or nil (a base's is used).
        package var progress: Progress?
        /// The descriptor's `render`, or nil (a base's is used).
        package var render: Render?
        /// The descriptor's `key`, or nil (a base's is used).
        package var key: Key?

        /// Hooks as given; those left out are absent, as a NULL field is.
        package init(
            create: Create? = nil, destroy: Destroy? = nil, show: Show? = nil, hide: Hide? = nil,
            progress: Progress? = nil, render: Render? = nil, key: Key? = nil
        ) {
            self.create = create; self.destroy = destroy; self.show = show; self.hide = hide
            self.progress = progress; self.render = render; self.key = key
        }

        /// The names of the hooks that are present, in descriptor order.
        package var presentNames: [String] {
            [
                ("create", create != nil), ("destroy", destroy != nil), ("show", show != nil),
                ("hide", hide != nil), ("progress", progress != nil), ("render", render != nil),
                ("key", key != nil),
            ].filter(\.1).map(\.0)
        }
    }
}
