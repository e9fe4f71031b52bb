import Foundation
import PlatformHTTP
import Testing

@testable import PlacesImporter

/// The admins' review of member-added places (X3, P4) against places in memory: only a pending place a member added
/// can be decided, judged as read and again when another admin's decision came first.
@Suite("places: ReviewPlace")
struct ReviewPlaceTests {
    let places = MemoryPlaces()
    let changed = Calls()

    var review: ReviewPlace { ReviewPlace(reviews: places, placesChanged: { [changed] in changed.note() }) }

    @Test("X3: approving a pending place lists it for everyone, and the index takes it in")
    func approves() async throws {
        let pending = places.insert(review: .pending, addedBy: "member-1")
        let decided = try #require(try await review(pending.id, .approve))
        #expect(decided.place.review == .approved && decided.addedBy == "member-1")
        #expect(try await places.find(pending.id)?.review == .approved)
        #expect(try await places.awaiting(limit: 10, offset: 0).isEmpty)
        #expect(changed.all.count == 1)
    }

    @Test("X3: rejecting a pending place hides it from everyone but its adder")
    func rejects() async throws {
        let pending = places.insert(review: .pending, addedBy: "member-1")
        #expect(try await review(pending.id, .reject)?.place.review == .rejected)
        let place = try #require(try await places.find(pending.id))
        #expect(!place.isVisible(to: "member-2") && place.isVisible(to: "member-1"))
    }

    @Test("X3: a decided place cannot be decided again; nothing changes and the index is not refreshed")
    func decidedOnce() async throws {
        for (review, decision) in [(PlaceReview.approved, ReviewDecision.approve), (.approved, .reject), (.rejected, .approve)] {
            let place = places.insert(review: review, addedBy: "member-1")
            await #expect(throws: PlacesRefusal.alreadyReviewed(review, decision)) { _ = try await self.review(place.id, decision) }
            #expect(try await places.find(place.id)?.review == review)
        }
        #expect(changed.all.isEmpty)
    }

    @Test("X3: an imported place needs no review and cannot be decided")
    func importedPlace() async throws {
        let imported = places.insert(review: .approved, addedBy: nil)
        await #expect(throws: PlacesRefusal.alreadyReviewed(.approved, .reject)) { _ = try await review(imported.id, .reject) }
        #expect(!PlaceReviewRules.canBeDecided(ReviewStanding(review: .pending, addedBy: nil)))
        #expect(PlaceReviewRules.canBeDecided(ReviewStanding(review: .pending, addedBy: "member-1")))
    }

    @Test("X3: an unknown place is nil")
    func unknown() async throws {
        #expect(try await review(UUID(), .approve) == nil)
    }

    @Test("X3: a place another admin decided between the read and the write is judged again and refused")
    func lostRace() async throws {
        let pending = places.insert(review: .pending, addedBy: "member-1")
        places.beforeDecision.withLock { $0 = { [places] id in places.setReview(id, .rejected) } }
        await #expect(throws: PlacesRefusal.alreadyReviewed(.rejected, .approve)) { _ = try await review(pending.id, .approve) }
        #expect(try await places.find(pending.id)?.review == .rejected)
        #expect(changed.all.isEmpty)
    }

    @Test("X3: the refusal answers 409 already_reviewed with the words it always had")
    func refusalAnswer() {
        let listed = PlacesErrors.answer(for: .alreadyReviewed(.approved, .approve))
        #expect(listed.status == .conflict && listed.code == "already_reviewed")
        #expect(listed.message == "the place is already listed for everyone")
        let rejected = PlacesErrors.answer(for: .alreadyReviewed(.rejected, .approve))
        #expect(rejected.message == "the place is rejected; only a pending place can be decided")
    }
}
