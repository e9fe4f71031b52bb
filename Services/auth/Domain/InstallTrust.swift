import Foundation

/// Which accounts the other services let do what costs others (a rating in everyone's averages, an application mailed
/// to every admin, a poll answer in the published results): install accounts are free, so every per-account limit
/// would multiply with them, and so would survey accounts, which anyone signs up for with any address. An account is
/// trusted when an admin made it (a dashboard account) or an identity provider vouches for it (a signed-in account),
/// when its survey address was confirmed with the mailed code, when its install was attested (`InstallAttestation`),
/// when an admin or a payment vouched for it (a role above `user`, a paid feature), or once it is
/// `INSTALL_TRUST_AFTER_HOURS` old. The access token carries the answer
/// as its `trusted` claim, decided when the token is issued: a new install becomes trusted with its first token after
/// the age.
package struct InstallTrust: Sendable, Equatable {
    /// How old an install account must be to be trusted without anything else (`INSTALL_TRUST_AFTER_HOURS`); 0 trusts
    /// every install at once, as before the rule.
    package var after: TimeInterval

    package init(after: TimeInterval) {
        self.after = after
    }

    package func trusts(_ account: Account, now: Date) -> Bool {
        if account.role != .user || !account.entitlements.isEmpty { return true }
        let vouched =
            switch account.kind {
            case .dashboard, .horoscope: true
            case .survey: account.emailVerifiedAt != nil
            case .install: account.attestedAt != nil
            }
        return vouched || now.timeIntervalSince(account.createdAt) >= after
    }
}
