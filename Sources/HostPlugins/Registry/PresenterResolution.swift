/// Decides which of the presenters with a valid descriptor are used: one per
/// id, each with a complete extension chain free of cycles.
///
/// Only a presenter that is itself usable can claim an id. So a broken
/// presenter (its base is missing, it is in a cycle) never shadows a good
/// one with the same id further down the search path: it is refused, and the
/// next presenter with that id is considered in its place. This repeats
/// until nothing changes; every round refuses at least one presenter, so it
/// ends. A presenter whose base was refused is told so, with the file that
/// says why, rather than that its base does not exist.
struct PresenterResolution {
    /// A presenter whose descriptor is valid, in search order.
    struct Candidate {
        let plugin: PresenterPlugin
        /// Its descriptor's index in its library.
        let index: Int
    }

    /// The presenters used, in search order.
    let plugins: [PresenterPlugin]
    /// Why each other candidate is not used, by its position in the candidates.
    let refusals: [Int: ResolutionFailure]

    /// Resolves `candidates`. `refusedIds` maps the ids of presenters refused
    /// for their descriptor (when the id was readable) to their file.
    init(_ candidates: [Candidate], refusedIds: [String: String]) {
        var removed: [Int: ResolutionFailure] = [:]
        var winners: [String: Int] = [:]
        while true {
            winners = [:]
            for (position, candidate) in candidates.enumerated() where removed[position] == nil {
                if winners[candidate.plugin.id] == nil { winners[candidate.plugin.id] = position }
            }
            var round: [Int: ResolutionFailure] = [:]
            for position in winners.values {
                let plugin = candidates[position].plugin
                guard let base = plugin.extends else { continue }
                if winners[base] == nil {
                    let refused =
                        refusedIds[base]
                        ?? candidates.indices.first { candidates[$0].plugin.id == base && removed[$0] != nil }
                        .map { candidates[$0].plugin.path }
                    round[position] =
                        refused.map { .baseUnavailable(id: plugin.id, base: base, path: $0) }
                        ?? .baseNotFound(id: plugin.id, base: base)
                } else if let cycle = Self.cycle(from: plugin, winners: winners, candidates: candidates) {
                    round[position] = .extensionCycle(id: plugin.id, cycle: cycle)
                }
            }
            if round.isEmpty { break }
            removed.merge(round) { first, _ in first }
        }

        var refusals = removed
        for (position, candidate) in candidates.enumerated() where removed[position] == nil {
            guard let winner = winners[candidate.plugin.id], winner != position else { continue }
            let first = candidates[winner]
            refusals[position] =
                first.plugin.path == candidate.plugin.path
                ? .duplicateInLibrary(id: candidate.plugin.id, index: candidate.index, first: first.index)
                : .shadowed(id: candidate.plugin.id, by: first.plugin.path)
        }
        self.plugins = candidates.indices.filter { winners[candidates[$0].plugin.id] == $0 }.map {
            candidates[$0].plugin
        }
        self.refusals = refusals
    }

    /// The ids from `plugin` back to itself when its chain of winners loops
    /// through it; nil when it does not (a loop further up is its members' problem).
    private static func cycle(
        from plugin: PresenterPlugin, winners: [String: Int],
        candidates: [Candidate]
    ) -> [String]? {
        var visited = [plugin.id]
        var current = plugin
        while let base = current.extends, let next = winners[base] {
            if base == plugin.id { return visited + [base] }
            if visited.contains(base) { return nil }
            visited.append(base)
            current = candidates[next].plugin
        }
        return nil
    }
}
