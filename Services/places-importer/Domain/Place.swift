import Foundation
import PlatformCore
import PlatformEvents

/// A workplace (P1, P2): where it is and what the providers or its adder know about it.
package struct Place: Sendable, Equatable {
    package var id: UUID
    package var name: String
    package var category: PlaceCategory
    package var latitude: Double
    package var longitude: Double
    package var address: String?
    package var openingHours: String?
    package var phone: String?
    package var website: String?
    package var internetAccess: String?
    /// The user who added it; nil for places from the providers.
    package var addedBy: String?
    /// Whether others see it: a member's place waits for an admin (X3), shown meanwhile to its adder only.
    package var review: PlaceReview = .approved

    package init(
        id: UUID, name: String, category: PlaceCategory, latitude: Double, longitude: Double, address: String? = nil, openingHours: String? = nil,
        phone: String? = nil, website: String? = nil, internetAccess: String? = nil, addedBy: String? = nil, review: PlaceReview = .approved
    ) {
        self.id = id
        self.name = name
        self.category = category
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.openingHours = openingHours
        self.phone = phone
        self.website = website
        self.internetAccess = internetAccess
        self.addedBy = addedBy
        self.review = review
    }
}

/// Where a place stands with the admins. Imported places are approved as they come; a member-added place is
/// `pending` until an admin approves it, and a `rejected` one is shown to nobody but its adder.
package enum PlaceReview: String, Sendable, Codable, CaseIterable {
    case pending, approved, rejected
}

/// A place as one provider describes it, before it is matched to the catalogue.
package struct PlaceCandidate: Sendable, Equatable {
    /// `osm`, `yelp` or `user`.
    package var provider: String
    /// The provider's own id (`node/123` for OpenStreetMap).
    package var providerId: String
    package var name: String
    package var category: PlaceCategory
    package var latitude: Double
    package var longitude: Double
    package var address: String?
    package var openingHours: String?
    package var phone: String?
    package var website: String?
    package var internetAccess: String?

    package init(
        provider: String, providerId: String, name: String, category: PlaceCategory, latitude: Double, longitude: Double, address: String? = nil,
        openingHours: String? = nil, phone: String? = nil, website: String? = nil, internetAccess: String? = nil
    ) {
        self.provider = provider
        self.providerId = providerId
        self.name = name
        self.category = category
        self.latitude = latitude
        self.longitude = longitude
        self.address = address
        self.openingHours = openingHours
        self.phone = phone
        self.website = website
        self.internetAccess = internetAccess
    }

    /// Changes when anything the catalogue stores from this source changes: a re-import of identical data
    /// is recognised and writes nothing.
    package var fingerprint: String {
        [
            name, category.rawValue, String(format: "%.6f,%.6f", latitude, longitude), address ?? "", openingHours ?? "", phone ?? "",
            website ?? "", internetAccess ?? "",
        ].joined(separator: "\u{1F}")
    }
}

extension PlaceCandidate {
    /// The candidate as the catalogue can store it, or nil. A provider's coordinates must be real degrees:
    /// one element at latitude 1000 would otherwise fail the statement, and with it the whole tile. Texts
    /// lose NUL characters (Postgres refuses them) and are bounded; a name left empty is no place.
    package func storable() -> PlaceCandidate? {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            return nil
        }
        var clean = self
        clean.providerId = providerId.storableText(maxLength: 200)
        clean.name = name.storableText(maxLength: 300)
        clean.address = address?.storableText(maxLength: 500)
        clean.openingHours = openingHours?.storableText(maxLength: 500)
        clean.phone = phone?.storableText(maxLength: 100)
        clean.website = website?.storableText(maxLength: 2_000)
        clean.internetAccess = internetAccess?.storableText(maxLength: 100)
        return clean.name.trimmingCharacters(in: .whitespaces).isEmpty ? nil : clean
    }
}

/// How names are compared when two providers describe the same place: lower case, no accents, letters and
/// digits only (`Café Einstein` and `CAFE EINSTEIN!` match).
package enum MatchName {
    package static func of(_ name: String) -> String {
        let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return String(String.UnicodeScalarView(folded.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }))
    }
}
