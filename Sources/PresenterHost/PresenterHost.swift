// The library's module, what `import PresenterHost` brings: no code of its
// own, only the declarations that make up the library's API, re-exported one
// by one (as swift-nio's Exports.swift does): the runtime and its views, what
// its public signatures name, and the registry's stages that make what it
// takes. The rest of the layers (processes, signals, the sandbox's means, the
// presenter process's engine) is the package's own, and the Add Bookmark app
// (its store, get-title, its screen) is the command line's: none of it is
// here. LibraryAPITests compiles a client that must see these and must not
// see the rest; a name added here is a promise to library users.

// The runtime and its views.
@_exported import class HostRuntime.PresenterRuntime
@_exported import class HostRuntime.ScreenletView
@_exported import class HostRuntime.Screenlet
@_exported import class HostRuntime.InteractorHandle
@_exported import class HostRuntime.ViewElement
@_exported import enum HostRuntime.ProgressMessageType
@_exported import typealias HostRuntime.ProgressMessages
@_exported import var HostRuntime.NoProgressMessage
@_exported import enum HostRuntime.RuntimeError
@_exported import struct HostEngine.InteractorError

// Where frames go.
@_exported import protocol HostRuntime.RenderBackend
@_exported import enum HostRuntime.BackendFactory
@_exported import enum HostRuntime.ColorMode
@_exported import enum HostRuntime.ProgressEvent
@_exported import struct HostText.Canvas
@_exported import struct HostText.CellStyle
@_exported import struct HostText.ViewFlags
@_exported import struct HostSystem.FileDescriptor

// Where plugins come from and where their hooks run.
@_exported import enum HostPlugins.SearchPath
@_exported import struct HostPlugins.SearchPathEntry
@_exported import struct HostPlugins.RegistryPipeline
@_exported import struct HostPlugins.PluginScanner
@_exported import struct HostPlugins.PluginPolicy
@_exported import struct HostPlugins.PresenterRegistry
@_exported import struct HostPlugins.PresenterChain
@_exported import struct HostPlugins.PluginLoadError
@_exported import enum HostPlugins.DiscoveryFailure
@_exported import enum HostPlugins.PluginLoadFailure
@_exported import enum HostPlugins.ResolutionFailure
@_exported import struct HostPlugins.UnknownPresenter
@_exported import struct HostEngine.PresenterProcessConfiguration

// What the presenters say and how they fail; the clock they read.
@_exported import struct HostEngine.PresenterLogEntry
@_exported import struct HostEngine.PresenterFailure
@_exported import enum HostEngine.StartFailure
@_exported import enum HostEngine.ProtocolViolation
@_exported import struct HostSandbox.ConfinementViolation
@_exported import enum HostEngine.Hook
@_exported import protocol HostEngine.HostClock
@_exported import struct HostEngine.MonotonicClock
@_exported import class HostEngine.ManualClock
