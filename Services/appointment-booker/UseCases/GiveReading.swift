import Foundation
import PlatformCore

/// A paid reading (B4, U6): asked by an account that holds the feature (granted by its token or auth's events and
/// not revoked since), drawn by the engine, kept in the account's history within the day's limit, and after a bad
/// verdict given with places to pray near the asker.
package struct GiveReading: Sendable {
    package let readings: ReadingService
    package let accounts: CheckAccount

    package init(readings: ReadingService, accounts: CheckAccount) {
        self.readings = readings
        self.accounts = accounts
    }

    /// What was asked, already checked against the content (a deck's cards, the signs, a number's digits).
    package enum Question: Sendable {
        case tarot(TarotDraw)
        case fortuneStick
        case compatibility(CompatibilityQuestion)
        case phoneNumber(PhoneDigits)

        package var kind: Reading.Kind {
            switch self {
            case .tarot: .tarot
            case .fortuneStick: .fortuneStick
            case .compatibility: .compatibility
            case .phoneNumber: .phoneNumber
            }
        }
    }

    /// An account's leave to a reading of one kind: made only by `authorize`, so that no reading is drawn for an
    /// account nobody asked about.
    package struct Purchaser: Sendable {
        fileprivate let account: String
        fileprivate let kind: Reading.Kind
        fileprivate let search: PlacesSearch
    }

    package struct Given: Sendable {
        package var stored: StoredReading
        package var placesToPray: ReadingService.PlacesToPray?

        package init(stored: StoredReading, placesToPray: ReadingService.PlacesToPray? = nil) {
            self.stored = stored
            self.placesToPray = placesToPray
        }
    }

    /// Asked before the request's body is read, as the access rules answer (403 before 400). `network`: the caller's
    /// (`ClientNetworks.network`), whose share of the places budget a bad verdict spends. Throws `AccountRefusal`.
    package func authorize(_ caller: AuthenticatedUser, for kind: Reading.Kind, from network: String) async throws -> Purchaser {
        Purchaser(
            account: try await accounts.purchaser(caller, of: kind.entitlement), kind: kind, search: PlacesSearch(for: caller, network: network))
    }

    /// Throws `TooManyReadings` past the day's limit, and `Mismatch` when the question is not of the
    /// kind the purchaser was authorized for.
    package func callAsFunction(
        _ question: Question, by purchaser: Purchaser, on day: CivilDate, near position: (Double, Double)?
    ) async throws -> Given {
        guard question.kind == purchaser.kind else { throw Mismatch(authorized: purchaser.kind, asked: question.kind) }
        let (reading, inputs) = draw(question, for: purchaser.account, on: day)
        let stored = try await readings.keep(reading, user: purchaser.account, inputs: inputs, day: day)
        return Given(stored: stored, placesToPray: try await readings.placesToPray(after: stored.reading, near: position, search: purchaser.search))
    }

    /// A programming error in a route: it authorized one kind and asked another.
    package struct Mismatch: Error {
        package var authorized: Reading.Kind
        package var asked: Reading.Kind

        package init(authorized: Reading.Kind, asked: Reading.Kind) {
            self.authorized = authorized
            self.asked = asked
        }
    }

    private func draw(_ question: Question, for account: String, on day: CivilDate) -> (Reading, inputs: String) {
        let engine = readings.engine
        switch question {
        case .tarot(let draw): return (engine.tarot(cards: draw.cards, user: account, on: day), draw.inputs)
        case .fortuneStick: return (engine.fortuneStick(user: account, on: day), "")
        case .compatibility(let question): return (question.reading(by: engine, on: day), question.inputs)
        case .phoneNumber(let number): return (engine.phoneNumber(number, on: day), number.inputs)
        }
    }
}
