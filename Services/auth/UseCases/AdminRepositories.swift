import Foundation
import PlatformCore
import PlatformEvents

/// What the admin, payment and profile use cases need from storage: the Postgres stores in the service, memory
/// ones in the unit tests.

/// Admin changes to accounts (U5), each with its event in the same transaction.
package protocol AccountAdministration: Sendable {
    /// False when there is no such account.
    func update(id: UUID, displayName: String?, role: UserRole?, banned: Bool?) async throws -> Bool
    /// Idempotent; false when there is no such account.
    func grant(_ entitlement: Entitlement, to id: UUID) async throws -> Bool
    /// Announced also when the account did not hold it; false when there is no such account.
    func revoke(_ entitlement: Entitlement, from id: UUID) async throws -> Bool
}

/// The payment provider's notifications (U6), each applied once by payment id and status.
package protocol PaymentLedger: Sendable {
    func record(
        paymentId: String, accountId: UUID, entitlement: Entitlement, status: ProviderPaymentStatus, amountCents: Int64
    ) async throws -> PaymentOutcome
}

/// The signed-in user's own profile fields (U9).
package protocol Profiles: Sendable {
    /// Sets the fields given (nil: unchanged); false for an unknown account.
    func updateProfile(of id: UUID, displayName: String?, language: String?, timeZone: String?, zodiacSign: String?) async throws -> Bool
}
