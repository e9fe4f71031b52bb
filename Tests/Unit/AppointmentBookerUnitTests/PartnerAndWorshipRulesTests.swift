import Foundation
import PlatformCore
import PlatformHTTP
import Testing

@testable import AppointmentBooker

/// What a partner's checkout reference names, who sees a partner's contact, and the cell a bad reading asks
/// places of worship for (B4, B6, U6), as pure logic.
@Suite("appointment-booker: checkout references, contact disclosure, worship cells")
struct PartnerAndWorshipRulesTests {
    @Test("B6: a checkout reference names a partner's fee or an ad, in lower case, and nothing else")
    func checkoutReferences() throws {
        let id = UUID()
        #expect(PartnerCheckout.reference(fee: id) == "fee:\(id.uuidString.lowercased())")
        #expect(PartnerCheckout(reference: PartnerCheckout.reference(fee: id)) == .fee(partner: id))
        #expect(PartnerCheckout(reference: PartnerCheckout.reference(ad: id)) == .ad(id))
        #expect(PartnerCheckout(reference: "fee:\(id.uuidString)") == .fee(partner: id), "the provider may echo it in upper case")
        for other in ["", "fee", "fee:", "fee:not-a-uuid", "tip:\(id.uuidString)", "ad:\(id.uuidString):x", ":\(id.uuidString)"] {
            #expect(PartnerCheckout(reference: other) == nil, "\(other)")
        }
    }

    @Test("U6: a partner's contact is shown to itself, admins and callers holding the feature; never to the anonymous")
    func contactDisclosure() {
        let partner = Partner(
            id: UUID(), name: "Madame Sroy", description: "", contact: "+66 81 234 5678", photoURL: nil, languages: ["th"],
            timeZone: "Asia/Bangkok", approved: true, feeStatus: .paid, promoted: false, listed: true,
            availability: Availability(weekly: [], exceptions: []))
        let itself = AuthenticatedUser(id: partner.id.uuidString.uppercased(), role: .partner, entitlements: [])
        let otherPartner = AuthenticatedUser(id: UUID().uuidString, role: .partner, entitlements: [])
        let admin = AuthenticatedUser(id: UUID().uuidString, role: .admin, entitlements: [])
        let user = AuthenticatedUser(id: UUID().uuidString, role: .user, entitlements: [])
        #expect(ContactDisclosure.shows(contactOf: partner, to: itself, entitled: false), "its own id in either case")
        #expect(ContactDisclosure.shows(contactOf: partner, to: admin, entitled: false))
        #expect(!ContactDisclosure.shows(contactOf: partner, to: otherPartner, entitled: false))
        #expect(!ContactDisclosure.shows(contactOf: partner, to: user, entitled: false))
        #expect(ContactDisclosure.shows(contactOf: partner, to: user, entitled: true))
        #expect(!ContactDisclosure.shows(contactOf: partner, to: nil, entitled: true))
    }

    @Test("B4: readings near each other share a 0.1° cell, named by its south-west corner, also south and west of zero")
    func worshipCells() {
        #expect(WorshipCell(latitude: 13.7563, longitude: 100.5018).id == "13.7,100.5")
        #expect(WorshipCell(latitude: 13.7563, longitude: 100.5018) == WorshipCell(latitude: 13.7012, longitude: 100.5999))
        #expect(WorshipCell(latitude: 13.7563, longitude: 100.5018) != WorshipCell(latitude: 13.8563, longitude: 100.5018))
        #expect(WorshipCell(latitude: -33.87, longitude: -0.05).id == "-33.9,-0.1")
        #expect(WorshipCell(latitude: 0.05, longitude: 0.05).id == "0.0,0.0")
    }
}
