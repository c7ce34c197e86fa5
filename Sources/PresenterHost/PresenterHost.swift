// The library's module, what `import PresenterHost` brings: no code of its
// own, only the layers whose public declarations make up the library's API
// (the runtime and what its signatures name, the registry's stages, the
// bookmark store and get-title). The command line (HostCommandLine) is the
// executable's and stays out. Re-exported so that the README's example
// compiles with this one import, as it did when the host was one module.
@_exported import HostBookmarks
@_exported import HostEngine
@_exported import HostPlugins
@_exported import HostRuntime
@_exported import HostSystem
@_exported import HostText
