import Foundation

/// Which places of an imported area close or reopen (P1), decided from what a whole, successful run saw.
/// A place closes when it vanished from every provider: none of its sources was in this run's answers, and
/// every one of its sources comes from a provider that answered the whole area completely (a provider not
/// configured now, or one whose search was capped, cannot say a place is gone). Places users added are
/// never closed here. A closed place that a provider lists again reopens.
package struct PlaceClosure: Sendable, Equatable {
    /// A place of the area as the catalogue knows it.
    package struct Known: Sendable {
        package var id: UUID
        package var isClosed: Bool
        package var sources: [SourceKey]

        package init(id: UUID, isClosed: Bool, sources: [SourceKey]) {
            self.id = id
            self.isClosed = isClosed
            self.sources = sources
        }
    }

    package var closing: [UUID] = []
    package var reopening: [UUID] = []

    package init(known: [Known], seen: Set<SourceKey>, judgedProviders: Set<String>) {
        for place in known where !place.sources.isEmpty {
            let wasSeen = place.sources.contains { seen.contains($0) }
            if place.isClosed {
                if wasSeen { reopening.append(place.id) }
            } else if !wasSeen, place.sources.allSatisfy({ judgedProviders.contains($0.provider) }) {
                closing.append(place.id)
            }
        }
    }
}
