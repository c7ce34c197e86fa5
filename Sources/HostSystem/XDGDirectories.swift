/// The per-user folders of the XDG base directory spec, from the
/// environment: the plugin search path's user folder and the bookmark store
/// (data), the registry cache (cache). (The user database's home folder is
/// ``UserAccount/homeDirectory()``'s.)
package enum XDGDirectories {
    /// `$XDG_DATA_HOME` when absolute (the XDG spec says to ignore a relative
    /// one), else `$HOME/.local/share`, else nothing.
    package static func dataHome(_ environment: [String: String]) -> String? {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return PathName.trimmed(xdg) }
        if let home = environment["HOME"], home.hasPrefix("/") { return PathName.trimmed(home) + "/.local/share" }
        return nil
    }

    /// `$XDG_CACHE_HOME` when absolute (the XDG spec ignores a relative
    /// one), else `$HOME/.cache`, else none.
    package static func cacheHome(_ environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.cache" }
        return nil
    }
}
