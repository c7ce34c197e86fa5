/// The per-user folders of the XDG base directory spec, from the
/// environment: the plugin search path's user folder and the bookmark store
/// (data), the registry cache (cache), all under one resolved home
/// (``home(_:)``).
package enum XDGDirectories {
    /// The user's home: `$HOME` when absolute, else the user database's
    /// (``UserAccount/homeDirectory()``) when that is absolute, else none.
    /// One answer for every folder: an unset, empty or relative `HOME` had
    /// the plugin folder drop out of the search path while the bookmarks
    /// went to the database's home.
    package static func home(_ environment: [String: String]) -> String? {
        if let home = environment["HOME"], home.hasPrefix("/") { return PathName.trimmed(home) }
        let database = UserAccount.homeDirectory()
        return database.hasPrefix("/") ? PathName.trimmed(database) : nil
    }

    /// One line saying which home the user's folders are under, when `HOME`
    /// does not say it (unset, empty or relative), for `--print-plugin-path`
    /// and `-v`; nil when `HOME` is absolute.
    package static func homeNote(_ environment: [String: String]) -> String? {
        let value = environment["HOME"]
        if let value, value.hasPrefix("/") { return nil }
        let what =
            switch value {
            case nil: "HOME is unset"
            case ""?: "HOME is empty"
            default: "HOME is relative"
            }
        guard let home = home(environment) else {
            return "presenter-host: \(what), and the user database gives no home: no user folder is searched"
        }
        return "presenter-host: \(what): the user's folders are under \(home), the user database's home"
    }

    /// `$XDG_DATA_HOME` when absolute (the XDG spec says to ignore a relative
    /// one), else `~/.local/share` (``home(_:)``), else nothing.
    package static func dataHome(_ environment: [String: String]) -> String? {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return PathName.trimmed(xdg) }
        return home(environment).map { $0 + "/.local/share" }
    }

    /// `$XDG_CACHE_HOME` when absolute (the XDG spec ignores a relative
    /// one), else `~/.cache` (``home(_:)``), else none.
    package static func cacheHome(_ environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg }
        return home(environment).map { $0 + "/.cache" }
    }
}
