import Foundation

/// What one tile of candidates does to the catalogue, decided in memory from what the catalogue already
/// knows, so that `PlaceStore` writes the whole tile with a handful of set-based statements instead of
/// four or five queries per place. The rules are those of applying the candidates one after another:
/// - a source seen before with the same fingerprint changes nothing;
/// - a known source that is its place's primary source rewrites the place; any other known source only
///   fills the place's empty fields;
/// - a new source joins the nearest place of the same match name within the match distance (one already
///   in the catalogue, or one an earlier candidate of this tile creates), or creates a place.
package struct PlaceBatchPlan: Sendable {
    /// What the catalogue knows of a candidate's source.
    package struct KnownSource: Sendable, Equatable {
        package var placeId: UUID
        package var fingerprint: String
        package var isPrimary: Bool

        package init(placeId: UUID, fingerprint: String, isPrimary: Bool) {
            self.placeId = placeId
            self.fingerprint = fingerprint
            self.isPrimary = isPrimary
        }
    }

    /// The nearest existing place a new source could join, and how far it is.
    package struct ExistingMatch: Sendable, Equatable {
        package var placeId: UUID
        package var distanceMetres: Double

        package init(placeId: UUID, distanceMetres: Double) {
            self.placeId = placeId
            self.distanceMetres = distanceMetres
        }
    }

    /// Fields a secondary source offers to a place, kept only where the place has none.
    package struct Fill: Sendable, Equatable {
        package var address: String?
        package var openingHours: String?
        package var phone: String?
        package var website: String?
        package var internetAccess: String?

        package init(_ candidate: PlaceCandidate) {
            (address, openingHours, phone, website, internetAccess) =
                (candidate.address, candidate.openingHours, candidate.phone, candidate.website, candidate.internetAccess)
        }

        /// The earlier fill wins field by field, as `COALESCE(field, new)` applied in order would.
        package mutating func add(_ later: Fill) {
            address = address ?? later.address
            openingHours = openingHours ?? later.openingHours
            phone = phone ?? later.phone
            website = website ?? later.website
            internetAccess = internetAccess ?? later.internetAccess
        }
    }

    /// A place this tile creates, with what joining candidates of the same tile add to it.
    package struct NewPlace: Sendable, Equatable {
        package var id: UUID
        package var candidate: PlaceCandidate

        package init(id: UUID, candidate: PlaceCandidate) {
            self.id = id
            self.candidate = candidate
        }
    }

    /// Candidates with a new source: the place each joins (new or existing).
    package struct NewSource: Sendable, Equatable {
        package var candidate: PlaceCandidate
        package var placeId: UUID

        package init(candidate: PlaceCandidate, placeId: UUID) {
            self.candidate = candidate
            self.placeId = placeId
        }
    }

    package var outcome = UpsertOutcome()
    /// Existing places that gain empty fields, one merged fill per place, in first-touched order.
    package var fills: [(placeId: UUID, fill: Fill)] = []
    package var newPlaces: [NewPlace] = []
    package var newSources: [NewSource] = []
    /// Known sources whose fingerprint changes.
    package var changedSources: [PlaceCandidate] = []
    /// Every place created or changed, in first-touched order: each gets one `place.upserted` event.
    package var touched: [UUID] = []

    /// The candidates with one per source: a later description of the same source replaces an earlier one
    /// (applied in order, the later would have overwritten the earlier).
    package static func distinctSources(_ candidates: [PlaceCandidate]) -> [PlaceCandidate] {
        var position: [SourceKey: Int] = [:]
        var distinct: [PlaceCandidate] = []
        for candidate in candidates {
            let key = SourceKey(candidate)
            if let index = position[key] {
                distinct[index] = candidate
            } else {
                position[key] = distinct.count
                distinct.append(candidate)
            }
        }
        return distinct
    }

    /// Known primary sources whose data changed: the place takes the candidate's data. Applied before the
    /// plan is made, so that new sources are matched against the places as they are after it.
    package static func rewrites(
        of candidates: [PlaceCandidate], known: [SourceKey: KnownSource]
    ) -> [(placeId: UUID, candidate: PlaceCandidate)] {
        candidates.compactMap { candidate in
            guard let source = known[SourceKey(candidate)], source.isPrimary, source.fingerprint != candidate.fingerprint else {
                return nil
            }
            return (source.placeId, candidate)
        }
    }

    /// Plans `candidates` (distinct by source). `known` is what the catalogue has of their sources;
    /// `existingMatch` gives, for a candidate with a new source, the nearest catalogue place it could join.
    package init(
        candidates: [PlaceCandidate], known: [SourceKey: KnownSource], existingMatch: (Int) -> ExistingMatch?,
        matchDistanceMetres: Double, newId: () -> UUID = UUID.init
    ) {
        var fillIndex: [UUID: Int] = [:]
        var newPlaceIndex: [UUID: Int] = [:]
        var newPlacesByName: [String: [Int]] = [:]
        var touchedSet: Set<UUID> = []
        func touch(_ id: UUID) {
            if touchedSet.insert(id).inserted { touched.append(id) }
        }
        func fill(_ placeId: UUID, with candidate: PlaceCandidate) {
            if let index = newPlaceIndex[placeId] {
                var merged = Fill(newPlaces[index].candidate)
                merged.add(Fill(candidate))
                newPlaces[index].candidate.apply(merged)
            } else if let index = fillIndex[placeId] {
                fills[index].fill.add(Fill(candidate))
            } else {
                fillIndex[placeId] = fills.count
                fills.append((placeId, Fill(candidate)))
            }
        }
        for (index, candidate) in candidates.enumerated() {
            if let source = known[SourceKey(candidate)] {
                guard source.fingerprint != candidate.fingerprint else {
                    outcome.unchanged += 1
                    continue
                }
                // A changed primary source rewrites its place (see `rewrites`); any other only fills gaps.
                if !source.isPrimary { fill(source.placeId, with: candidate) }
                changedSources.append(candidate)
                touch(source.placeId)
                outcome.changed += 1
                continue
            }
            let matchName = MatchName.of(candidate.name)
            var best = existingMatch(index).map { (placeId: $0.placeId, distance: $0.distanceMetres) }
            for earlier in newPlacesByName[matchName] ?? [] {
                let place = newPlaces[earlier]
                let distance = GreatCircle.metres(
                    from: (place.candidate.latitude, place.candidate.longitude), to: (candidate.latitude, candidate.longitude))
                if distance <= matchDistanceMetres, distance < best?.distance ?? .infinity { best = (place.id, distance) }
            }
            if let best {
                fill(best.placeId, with: candidate)
                newSources.append(NewSource(candidate: candidate, placeId: best.placeId))
                touch(best.placeId)
                outcome.changed += 1
            } else {
                let id = newId()
                newPlaceIndex[id] = newPlaces.count
                newPlacesByName[matchName, default: []].append(newPlaces.count)
                newPlaces.append(NewPlace(id: id, candidate: candidate))
                newSources.append(NewSource(candidate: candidate, placeId: id))
                touch(id)
                outcome.created += 1
            }
        }
    }
}

/// A provider's id for a place: the primary key of `place_sources`.
package struct SourceKey: Hashable, Sendable {
    package var provider: String
    package var providerId: String

    package init(provider: String, providerId: String) {
        (self.provider, self.providerId) = (provider, providerId)
    }

    package init(_ candidate: PlaceCandidate) {
        self.init(provider: candidate.provider, providerId: candidate.providerId)
    }
}

extension PlaceCandidate {
    /// Takes the fields of `fill` (used for a place this tile creates, where the fill is already merged).
    package mutating func apply(_ fill: PlaceBatchPlan.Fill) {
        (address, openingHours, phone, website, internetAccess) =
            (fill.address, fill.openingHours, fill.phone, fill.website, fill.internetAccess)
    }
}

/// Distance on the mean Earth sphere. PostGIS measures geography on the spheroid; the two differ by well
/// under 1 % at match distances, which only matters for a candidate at the very edge of the match radius.
package enum GreatCircle {
    package static let earthRadiusMetres = 6_371_008.8

    package static func metres(from a: (latitude: Double, longitude: Double), to b: (latitude: Double, longitude: Double)) -> Double {
        let φ1 = a.latitude * .pi / 180, φ2 = b.latitude * .pi / 180
        let Δφ = φ2 - φ1, Δλ = (b.longitude - a.longitude) * .pi / 180
        let h = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * earthRadiusMetres * asin(min(1, h.squareRoot()))
    }
}
