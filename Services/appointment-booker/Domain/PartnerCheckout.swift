import Foundation

/// What a partner pays for through the payment provider (B6), named by the checkout reference the app hands the
/// provider and the provider's notification gives back: `fee:<partner id>` (the fee to become a listed fortune
/// teller) or `ad:<ad id>` (a paid promotion).
package enum PartnerCheckout: Equatable, Sendable {
    case fee(partner: UUID)
    case ad(UUID)

    package static func reference(fee partner: UUID) -> String { "fee:\(partner.uuidString.lowercased())" }
    package static func reference(ad: UUID) -> String { "ad:\(ad.uuidString.lowercased())" }

    /// The purchase a reference names, or nil for anything else.
    package init?(reference: String) {
        let parts = reference.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let id = UUID(uuidString: String(parts[1])) else { return nil }
        switch parts[0] {
        case "fee": self = .fee(partner: id)
        case "ad": self = .ad(id)
        default: return nil
        }
    }
}
