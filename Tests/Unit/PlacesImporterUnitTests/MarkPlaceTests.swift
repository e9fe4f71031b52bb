import Foundation
import Testing

@testable import PlacesImporter

/// A user's pin colours and saves (P2) against places in memory: only on a place the user may see, and the user's
/// next nearby list shows the change.
@Suite("places: MarkPlace")
struct MarkPlaceTests {
    let places = MemoryPlaces()
    let changed = Calls()

    var mark: MarkPlace { MarkPlace(places: places, marks: places, userChanged: { [changed] in changed.note($0) }) }

    @Test("P2: a colour is the pin; taking it away leaves blue for a saved place, red for an untouched one")
    func colours() async throws {
        let place = places.insert(review: .approved, addedBy: nil)
        #expect(try await mark(place.id, user: "u1", mark: .colour(.green)) == "green")
        #expect(try await mark(place.id, user: "u1", mark: .saved(true)) == "green")
        #expect(try await mark(place.id, user: "u1", mark: .colour(nil)) == PinColour.touched)
        #expect(try await mark(place.id, user: "u1", mark: .saved(false)) == PinColour.untouched)
        #expect(changed.all == ["u1", "u1", "u1", "u1"])
    }

    @Test("P2: one user's marks are theirs alone")
    func perUser() async throws {
        let place = places.insert(review: .approved, addedBy: nil)
        _ = try await mark(place.id, user: "u1", mark: .colour(.purple))
        #expect(try await places.pin(placeId: place.id, user: "u2") == PinColour.untouched)
    }

    @Test("X3: another member's place awaiting review, or no place at all, is nil and nothing is written")
    func invisible() async throws {
        let theirs = places.insert(review: .pending, addedBy: "u2")
        #expect(try await mark(theirs.id, user: "u1", mark: .colour(.black)) == nil)
        #expect(try await mark(theirs.id, user: "u1", mark: .saved(true)) == nil)
        #expect(try await mark(UUID(), user: "u1", mark: .saved(true)) == nil)
        #expect(places.colourCount == 0 && places.savedCount == 0 && changed.all.isEmpty)
    }

    @Test("X3: the adder marks their own place while it awaits review")
    func ownPending() async throws {
        let mine = places.insert(review: .pending, addedBy: "u1")
        #expect(try await mark(mine.id, user: "u1", mark: .saved(false)) == PinColour.touched)
        #expect(try await mark(mine.id, user: "u1", mark: .colour(.yellow)) == "yellow")
    }
}
