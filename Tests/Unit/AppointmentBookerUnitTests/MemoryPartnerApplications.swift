import Foundation
import Synchronization

@testable import AppointmentBooker

/// Partner applications kept in memory, with the rules Postgres keeps for `PartnerApplicationStore`: one per account,
/// filed again only over a rejected one; decided only while pending (the `WHERE status = 'pending'` of the write);
/// approving makes the profile approved in `profiles`. Counts the writes tried, so a test sees a refusal made before
/// any write.
final class MemoryPartnerApplications: PartnerApplications {
    private let rows = Mutex<[UUID: PartnerApplication]>([:])
    /// Runs before each write, with the account's id: what another request changes in between.
    let beforeWrite = Mutex<(@Sendable (UUID) -> Void)?>(nil)
    private let writes = Mutex(0)
    let profiles: MemoryPartnerProfiles

    init(profiles: MemoryPartnerProfiles = MemoryPartnerProfiles()) {
        self.profiles = profiles
    }

    /// The writes (`apply`, `decide`) tried so far.
    var writesTried: Int { writes.withLock { $0 } }

    func find(_ user: UUID) async throws -> PartnerApplication? { rows.withLock { $0[user] } }

    func apply(_ application: PartnerApplication) async throws -> ApplicationFiling {
        writes.withLock { $0 += 1 }
        beforeWrite.withLock { $0 }?(application.userId)
        return rows.withLock { rows in
            if let earlier = rows[application.userId], earlier.status != .rejected { return .exists }
            rows[application.userId] = application
            return .applied(application)
        }
    }

    func decide(_ user: UUID, approve: Bool, reason: String?, by admin: String) async throws -> ApplicationDecision {
        writes.withLock { $0 += 1 }
        beforeWrite.withLock { $0 }?(user)
        let outcome = rows.withLock { rows -> ApplicationDecision in
            guard var application = rows[user] else { return .notFound }
            guard application.status == .pending else { return .alreadyDecided }
            (application.status, application.reason, application.decidedAt) = (approve ? .approved : .rejected, reason, Date())
            rows[user] = application
            return .decided(application)
        }
        if approve, case .decided(let application) = outcome { profiles.upsertApproved(application) }
        return outcome
    }

    /// Another request's application, written straight to the row.
    func insert(_ application: PartnerApplication) {
        rows.withLock { $0[application.userId] = application }
    }

    /// Another request's decision, written straight to the row.
    func setStatus(_ status: PartnerApplication.Status, of user: UUID) {
        rows.withLock { $0[user]?.status = status }
    }
}
