import Foundation
import Synchronization
import Testing

@testable import AppointmentBooker

/// Applying as a partner and deciding applications (B6) against memory storage: the terms must be current, a
/// pending or approved application stands, only a pending one is decided, and a decision raced by another one loses.
@Suite("appointment-booker: partner applications (use cases)")
struct PartnerApplicationTests {
    static let now = Date(timeIntervalSince1970: 1_894_006_800)
    static let terms = "2026-11"

    static func profile(_ id: UUID = UUID()) -> NewPartner {
        NewPartner(
            id: id, name: "Madame Sroy", description: "Tarot", contact: "+66 81 234 5678", photoURL: nil, languages: ["th"],
            timeZone: "Asia/Bangkok")
    }

    static func apply(_ store: MemoryPartnerApplications) -> ApplyAsPartner { ApplyAsPartner(applications: store, termsVersion: terms) }

    static func refusal<T>(_ work: () async throws -> T) async -> PartnerApplicationRefusal? {
        do {
            _ = try await work()
            return nil
        } catch {
            return error as? PartnerApplicationRefusal
        }
    }

    /// A filed application of a new account, and its store.
    static func filed() async throws -> (MemoryPartnerApplications, UUID) {
        let store = MemoryPartnerApplications()
        let id = UUID()
        _ = try await apply(store)(profile(id), applicantTrusted: true, acceptingTerms: terms, now: now)
        return (store, id)
    }

    @Test("B6: an application with the current terms is filed pending, with the version and time accepted")
    func applicationFiledPending() async throws {
        let store = MemoryPartnerApplications()
        let id = UUID()
        let filed = try await Self.apply(store)(Self.profile(id), applicantTrusted: true, acceptingTerms: Self.terms, now: Self.now)
        #expect(filed.userId == id && filed.status == .pending && filed.decidedAt == nil && filed.reason == nil)
        #expect(filed.termsVersion == Self.terms && filed.termsAcceptedAt == Self.now && filed.appliedAt == Self.now)
        #expect(try await store.find(id) == filed)
    }

    @Test("U8, B6: an account not trusted yet (a new install) files no application, which would mail every admin")
    func untrustedApplicantRefused() async throws {
        let store = MemoryPartnerApplications()
        let id = UUID()
        let refusal = await Self.refusal {
            try await Self.apply(store)(Self.profile(id), applicantTrusted: false, acceptingTerms: Self.terms, now: Self.now)
        }
        #expect(refusal == .accountNotTrusted)
        #expect(try await store.find(id) == nil && store.writesTried == 0)
        #expect(BookingErrors.answer(for: PartnerApplicationRefusal.accountNotTrusted).code == "account_not_trusted")
    }

    @Test("B6: other terms than the current version are refused, naming the current one, and nothing is filed")
    func termsMustBeCurrent() async throws {
        let store = MemoryPartnerApplications()
        let id = UUID()
        let refusal = await Self.refusal {
            try await Self.apply(store)(Self.profile(id), applicantTrusted: true, acceptingTerms: "2025-01", now: Self.now)
        }
        #expect(refusal == .termsNotCurrent(current: Self.terms))
        #expect(try await store.find(id) == nil && store.writesTried == 0)
    }

    @Test("B6: a pending or approved application stands: applying again is refused before any write")
    func pendingOrApprovedStands() async throws {
        for status in [PartnerApplication.Status.pending, .approved] {
            let (store, id) = try await Self.filed()
            store.setStatus(status, of: id)
            let refusal = await Self.refusal {
                try await Self.apply(store)(Self.profile(id), applicantTrusted: true, acceptingTerms: Self.terms, now: Self.now)
            }
            #expect(refusal == .applicationExists, "\(status)")
            #expect(store.writesTried == 1, "only the first application was written (\(status))")
        }
    }

    @Test("B6: a rejected applicant applies again, pending once more")
    func rejectedAppliesAgain() async throws {
        let (store, id) = try await Self.filed()
        _ = try await DecidePartnerApplication(applications: store)(id, approve: false, reason: "no photo", by: "admin-1")
        let again = try await Self.apply(store)(
            Self.profile(id), applicantTrusted: true, acceptingTerms: Self.terms, now: Self.now.addingTimeInterval(60))
        #expect(again.status == .pending && again.reason == nil && again.appliedAt == Self.now.addingTimeInterval(60))
    }

    @Test("B6: of two racing applications the store's write files one; the other is refused")
    func racingApplications() async throws {
        let store = MemoryPartnerApplications()
        let id = UUID()
        let other = PartnerApplication(
            userId: id, name: "Madame Other", description: "", contact: "line:other", photoURL: nil, languages: ["en"],
            timeZone: "UTC", termsVersion: Self.terms, termsAcceptedAt: Self.now, status: .pending, reason: nil, appliedAt: Self.now,
            decidedAt: nil)
        // The other request's application lands between this one's read and its write.
        store.beforeWrite.withLock { $0 = { _ in store.insert(other) } }
        let refusal = await Self.refusal {
            try await Self.apply(store)(Self.profile(id), applicantTrusted: true, acceptingTerms: Self.terms, now: Self.now)
        }
        #expect(refusal == .applicationExists)
        #expect(try await store.find(id)?.name == "Madame Other")
    }

    @Test("B6: a pending application is approved once: the profile is made approved, its fee unpaid")
    func approveMakesProfile() async throws {
        let (store, id) = try await Self.filed()
        let decided = try await DecidePartnerApplication(applications: store)(id, approve: true, reason: nil, by: "admin-1")
        #expect(decided.status == .approved && decided.decidedAt != nil)
        let partner = try #require(try await store.profiles.find(id))
        #expect(partner.approved && partner.feeStatus == .unpaid && partner.name == "Madame Sroy" && !partner.listed)
    }

    @Test("B6: only a pending application is decided: a decided one is refused before any write, an unknown one is not found")
    func onlyPendingIsDecided() async throws {
        for status in [PartnerApplication.Status.approved, .rejected] {
            let (store, id) = try await Self.filed()
            store.setStatus(status, of: id)
            let refusal = await Self.refusal {
                try await DecidePartnerApplication(applications: store)(id, approve: true, reason: nil, by: "admin-1")
            }
            #expect(refusal == .alreadyDecided, "\(status)")
            #expect(store.writesTried == 1, "no decision was written (\(status))")
            #expect(try await store.find(id)?.status == status)
        }
        let store = MemoryPartnerApplications()
        let refusal = await Self.refusal {
            try await DecidePartnerApplication(applications: store)(UUID(), approve: false, reason: nil, by: "admin-1")
        }
        #expect(refusal == .applicationNotFound && store.writesTried == 0)
    }

    @Test("B6: an application decided by another admin between the read and the write stays as that admin decided")
    func racedDecisionLoses() async throws {
        let (store, id) = try await Self.filed()
        store.beforeWrite.withLock { $0 = { user in store.setStatus(.rejected, of: user) } }
        let refusal = await Self.refusal {
            try await DecidePartnerApplication(applications: store)(id, approve: true, reason: nil, by: "admin-2")
        }
        #expect(refusal == .alreadyDecided)
        #expect(try await store.find(id)?.status == .rejected)
        #expect(try await store.profiles.find(id) == nil, "no profile was made")
    }
}
