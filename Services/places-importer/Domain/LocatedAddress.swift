/// Where an address lookup placed an address, and what it knows of the place there (P4).
package struct LocatedAddress: Sendable, Equatable {
    package var latitude: Double
    package var longitude: Double
    package var openingHours: String?
    package var phone: String?
    package var website: String?

    package init(latitude: Double, longitude: Double, openingHours: String? = nil, phone: String? = nil, website: String? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.openingHours = openingHours
        self.phone = phone
        self.website = website
    }
}

/// Looks addresses up for a member, within that member's share of the lookups. Throws
/// `PlacesRefusal.lookupUnavailable` when the lookup did not answer; nil when it knows no such address.
package protocol AddressLocating: Sendable {
    func locate(_ address: String, account: String) async throws -> LocatedAddress?
}

extension PlaceCandidate {
    /// The lookup places the address and fills in what the member left out; what the member gave is kept.
    package mutating func place(at located: LocatedAddress) {
        latitude = located.latitude
        longitude = located.longitude
        openingHours = openingHours ?? located.openingHours
        phone = phone ?? located.phone
        website = website ?? located.website
    }
}

extension Place {
    /// Whether `viewer` may see the place: approved, or added by them (X3: others learn of a member's place only
    /// once an admin approved it, so for them it does not exist).
    package func isVisible(to viewer: String) -> Bool {
        review == .approved || addedBy == viewer
    }
}
