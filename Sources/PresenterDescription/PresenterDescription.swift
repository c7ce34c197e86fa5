import PackagePlugin

/// The SDK's build plugin: a Swift presenter's target that uses it writes
/// what its presenters declare once, in a `.presenters` file, and gets
/// both the description notes presenter-host reads from the library
/// without loading it (presenter_abi.h, "The description") and a
/// `PresenterInfo` per presenter (`PresenterInfo.<id in lowerCamelCase>`)
/// for its code to export. docs/writing-a-presenter.md shows the file.
@main
struct PresenterDescription: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let manifests = target.sourceFiles(withSuffix: "presenters").map(\.url)
        guard let manifest = manifests.first else {
            throw Failure("target '\(target.name)' uses PresenterDescription but has no .presenters file; add one")
        }
        guard manifests.count == 1 else {
            throw Failure(
                "target '\(target.name)' has \(manifests.count) .presenters files; describe every presenter of the library in one, in descriptor order"
            )
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "PresenterDescription.swift")
        return [
            .buildCommand(
                displayName: "Describing the presenters of \(target.name)",
                executable: try context.tool(named: "presenter-describe").url,
                arguments: [manifest.path(percentEncoded: false), output.path(percentEncoded: false)],
                inputFiles: [manifest], outputFiles: [output])
        ]
    }

    /// Why the plugin cannot describe a target.
    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
