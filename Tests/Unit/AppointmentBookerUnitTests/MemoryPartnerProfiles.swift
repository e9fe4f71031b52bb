import Foundation
import PlatformCore
import Synchronization

@testable import AppointmentBooker

/// Partners' profiles and ads kept in memory, with the rules Postgres keeps for `PartnerStore`: a profile only for an
/// account auth's events made a partner, one per account; an admin's fee or ad payment marked `admin` (none when
/// unpaid); listed when approved, its fee paid and the account a partner; an ad runs when paid and in its window.
final class MemoryPartnerProfiles: PartnerProfiles, PartnerAds {
    private let partners = Mutex<[UUID: Partner]>([:])
    private let adRows = Mutex<[Ad]>([])
    private let creates = Mutex(0)
    /// The roles auth's events gave accounts.
    let roles: Mutex<[UUID: UserRole]>
    /// The database's `now()`, for an ad's window.
    let clock: @Sendable () -> Date

    init(roles: [UUID: UserRole] = [:], clock: @escaping @Sendable () -> Date = Date.init) {
        self.roles = Mutex(roles)
        self.clock = clock
    }

    func find(_ id: UUID) async throws -> Partner? {
        guard var partner = partners.withLock({ $0[id] }) else { return nil }
        partner.listed = partner.approved && partner.feeStatus == .paid && roles.withLock { $0[id] } == .partner
        partner.promoted = adRows.withLock { ads in ads.contains { $0.partnerId == id && active($0) } }
        return partner
    }

    func create(_ new: NewPartner) async throws -> PartnerCreation {
        creates.withLock { $0 += 1 }
        guard roles.withLock({ $0[new.id] }) == .partner else { return .notAPartner }
        let created = partners.withLock { partners in
            guard partners[new.id] == nil else { return false }
            partners[new.id] = Partner(
                id: new.id, name: new.name, description: new.description, contact: new.contact, photoURL: new.photoURL,
                languages: new.languages, timeZone: new.timeZone, approved: false, feeStatus: .unpaid, promoted: false, listed: false,
                availability: Availability(weekly: [], exceptions: []))
            return true
        }
        guard created, let partner = try await find(new.id) else { return .exists }
        return .created(partner)
    }

    func update(_ id: UUID, _ changes: ProfileChanges) async throws -> Partner? {
        let found = partners.withLock { partners in
            guard var partner = partners[id] else { return false }
            partner.name = changes.name ?? partner.name
            partner.description = changes.description ?? partner.description
            partner.contact = changes.contact ?? partner.contact
            partner.photoURL = changes.photoURL ?? partner.photoURL
            partner.languages = changes.languages ?? partner.languages
            partner.timeZone = changes.timeZone ?? partner.timeZone
            partner.approved = changes.approved ?? partner.approved
            if let fee = changes.feeStatus { (partner.feeStatus, partner.feeMarkedBy) = (fee, PaymentMarker.admin.marking(fee)?.rawValue) }
            partners[id] = partner
            return true
        }
        return found ? try await find(id) : nil
    }

    func setAvailability(_ id: UUID, _ availability: Availability) async throws -> Bool {
        partners.withLock { partners in
            guard partners[id] != nil else { return false }
            partners[id]?.availability = availability
            return true
        }
    }

    func addAd(partner: UUID, startsAt: Date, endsAt: Date) async throws -> Ad? {
        guard partners.withLock({ $0[partner] }) != nil else { return nil }
        let ad = Ad(id: UUID(), partnerId: partner, startsAt: startsAt, endsAt: endsAt, paymentStatus: .unpaid, active: false, markedBy: nil)
        adRows.withLock { $0.append(ad) }
        return ad
    }

    func setAdPayment(partner: UUID, ad: UUID, status: PaymentStatus) async throws -> Ad? {
        mark(ad: ad, of: partner, status, by: .admin)
    }

    // MARK: What the tests and the other memory stores reach

    /// The profile inserts tried so far.
    var createsTried: Int { creates.withLock { $0 } }

    var ads: [Ad] { adRows.withLock { $0 }.map(withActivity) }

    /// An approved profile as `PartnerApplicationStore` makes it, or the existing one approved.
    func upsertApproved(_ application: PartnerApplication) {
        partners.withLock { partners in
            var partner =
                partners[application.userId]
                ?? Partner(
                    id: application.userId, name: "", description: "", contact: "", photoURL: nil, languages: [], timeZone: "",
                    approved: false, feeStatus: .unpaid, promoted: false, listed: false, availability: Availability(weekly: [], exceptions: []))
            (partner.name, partner.description, partner.contact) = (application.name, application.description, application.contact)
            (partner.photoURL, partner.languages, partner.timeZone) = (application.photoURL, application.languages, application.timeZone)
            partner.approved = true
            partners[application.userId] = partner
        }
    }

    /// Whether a partner's fee or an ad of that id is there.
    func knows(_ purchase: PartnerCheckout) -> Bool {
        switch purchase {
        case .fee(let partner): partners.withLock { $0[partner] != nil }
        case .ad(let ad): adRows.withLock { rows in rows.contains { $0.id == ad } }
        }
    }

    /// A mark of a partner's fee.
    func markFee(of partner: UUID, _ status: PaymentStatus, by marker: PaymentMarker) {
        partners.withLock { partners in
            partners[partner]?.feeStatus = status
            partners[partner]?.feeMarkedBy = marker.marking(status)?.rawValue
        }
    }

    /// An ad's payment marked, when `partner` (any with nil) has it.
    @discardableResult
    func mark(ad id: UUID, of partner: UUID?, _ status: PaymentStatus, by marker: PaymentMarker) -> Ad? {
        let marked = adRows.withLock { rows -> Ad? in
            guard let index = rows.firstIndex(where: { $0.id == id && (partner == nil || $0.partnerId == partner) }) else { return nil }
            (rows[index].paymentStatus, rows[index].markedBy) = (status, marker.marking(status)?.rawValue)
            return rows[index]
        }
        return marked.map(withActivity)
    }

    private func withActivity(_ ad: Ad) -> Ad {
        var ad = ad
        ad.active = active(ad)
        return ad
    }

    private func active(_ ad: Ad) -> Bool {
        let now = clock()
        return ad.paymentStatus == .paid && ad.startsAt <= now && now < ad.endsAt
    }
}

/// The same accounts' roles as auth's events left them, as `PostgresAccountStates` reads the `accounts` table the
/// profile insert also reads.
extension MemoryPartnerProfiles: AccountStates {
    func state(of account: String) async throws -> AccountState {
        guard let id = UUID(uuidString: account), let role = roles.withLock({ $0[id] }) else { return .unknown }
        return AccountState(role: role, banned: false, revoked: [])
    }
}
