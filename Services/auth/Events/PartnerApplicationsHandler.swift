import Foundation
import Logging
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PostgresNIO

/// appointment-booker's fortune-teller applications (B6): an application mails every admin who has an address (the
/// alert; the pending list is appointment-booker's admin API), an approval makes a user account a partner and
/// publishes `user.role-changed` (an admin stays an admin; a banned account stays as it is until unbanned).
struct PartnerApplicationsHandler: EventHandler {
    let mail: MailQueue
    let usersTopic: String

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        switch event.header.type {
        case EventTypes.partnerApplied:
            let applied = try event.payload(as: PartnerApplied.self)
            try await alertAdmins(applied, on: connection, logger: logger)
        case EventTypes.partnerApproved:
            let approved = try event.payload(as: PartnerApproved.self)
            try await makePartner(approved.userId, on: connection, logger: logger)
        default:
            throw EventDecodingError(reason: "auth does not handle \(event.header.type) events")
        }
    }

    private func alertAdmins(_ applied: PartnerApplied, on connection: PostgresConnection, logger: Logger) async throws {
        let admins = try await PartnerPromotions.adminAddresses(on: connection, logger: logger)
        let name = applied.name.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
        for admin in admins {
            try await mail.enqueue(
                to: admin, subject: "A fortune teller applied: \(String(name.prefix(80)))",
                body: """
                    \(name) applied to become a fortune teller (account \(AccountKey.of(applied.userId)), terms \(applied.termsVersion)).

                    The applications waiting for a decision: GET /v1/admin/partner-applications?status=pending on appointment-booker;
                    decide with POST /v1/admin/partner-applications/\(AccountKey.of(applied.userId))/decision.
                    """,
                on: connection, logger: logger)
        }
        logger.info("partner application announced to admins", metadata: ["admins": "\(admins.count)"])
    }

    private func makePartner(_ user: UUID, on connection: PostgresConnection, logger: Logger) async throws {
        guard try await PartnerPromotions.makePartner(user, usersTopic: usersTopic, on: connection, logger: logger) else {
            logger.info("approved partner's account not made a partner: unknown, or not a user account")
            return
        }
    }
}
