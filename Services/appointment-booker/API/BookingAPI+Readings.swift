import Foundation
import PlatformCore
import PlatformHTTP

/// The horoscope app's readings (B4; the free daily horoscope is `HoroscopeRoute`'s): tarot, fortune stick,
/// compatibility and phone number (purchased, U6: granted by the token or auth's events, not revoked since), shared
/// readings without a token, and the signed-in user's history.
extension BookingAPI {
    func listTarotCards(_ input: Operations.ListTarotCards.Input) async throws -> Operations.ListTarotCards.Output {
        let language = Language(acceptLanguage: input.headers.acceptLanguage)
        return .ok(
            .init(
                body: .json(
                    .init(
                        cards: readings.content.cards.map {
                            .init(id: $0.id, name: $0.name.text(language), arcana: $0.arcana == .major ? .major : .minor)
                        }))))
    }

    func readTarot(_ input: Operations.ReadTarot.Input) async throws -> Operations.ReadTarot.Output {
        let purchaser = try await purchaser(for: .tarot)
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let draw = try TarotDraw(ids: body.cards, deck: readings.content.card)
        let position = try ReadingRequest.position(latitude: body.latitude, longitude: body.longitude)
        let day = try ReadingRequest.day(tz: input.query.tz, date: nil)
        return .created(
            .init(body: .json(try await given(.tarot(draw), by: purchaser, on: day, near: position, language: input.headers.acceptLanguage))))
    }

    func shakeFortuneStick(_ input: Operations.ShakeFortuneStick.Input) async throws -> Operations.ShakeFortuneStick.Output {
        let purchaser = try await purchaser(for: .fortuneStick)
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let position = try ReadingRequest.position(latitude: body.latitude, longitude: body.longitude)
        let day = try ReadingRequest.day(tz: input.query.tz, date: nil)
        return .created(
            .init(body: .json(try await given(.fortuneStick, by: purchaser, on: day, near: position, language: input.headers.acceptLanguage))))
    }

    func readCompatibility(_ input: Operations.ReadCompatibility.Input) async throws -> Operations.ReadCompatibility.Output {
        let purchaser = try await purchaser(for: .compatibility)
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let position = try ReadingRequest.position(latitude: body.latitude, longitude: body.longitude)
        let day = try ReadingRequest.day(tz: input.query.tz, date: nil)
        // Names are read without the blanks around them.
        let question = try CompatibilityQuestion(
            signs: body.signs?.map(\.rawValue), names: body.names?.map { RequestText.trimmed($0) }, in: readings.content)
        return .created(
            .init(
                body: .json(
                    try await given(.compatibility(question), by: purchaser, on: day, near: position, language: input.headers.acceptLanguage))))
    }

    func readPhoneNumber(_ input: Operations.ReadPhoneNumber.Input) async throws -> Operations.ReadPhoneNumber.Output {
        let purchaser = try await purchaser(for: .phoneNumber)
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        guard RequestText.length(body.number) <= 40, let number = PhoneNumberRule.number(body.number) else {
            throw APIError(
                .badRequest, code: "invalid_phone_number", message: "the phone number \(PhoneNumberRule.rule)",
                details: ["number": PhoneNumberRule.rule])
        }
        let position = try ReadingRequest.position(latitude: body.latitude, longitude: body.longitude)
        let day = try ReadingRequest.day(tz: input.query.tz, date: nil)
        return .created(
            .init(body: .json(try await given(.phoneNumber(number), by: purchaser, on: day, near: position, language: input.headers.acceptLanguage))))
    }

    func listMyReadings(_ input: Operations.ListMyReadings.Input) async throws -> Operations.ListMyReadings.Output {
        let user = AccountKey.of(try RequestScope.requireUser().id)
        let language = Language(acceptLanguage: input.headers.acceptLanguage)
        let paging = try Self.paging(input.query.page, input.query.pageSize)
        let found = try await readings.store.history(of: user, limit: paging.size + 1, offset: paging.offset)
        return .ok(
            .init(
                body: .json(
                    .init(
                        readings: found.prefix(paging.size).map {
                            .init(
                                $0.reading, id: $0.id, language: language, shareUrl: readings.sharing.url(shareId: $0.shareId), places: nil,
                                ceremony: readings.content.ceremony(after: $0.reading))
                        },
                        page: paging.page, pageSize: paging.size, hasMore: found.count > paging.size))))
    }

    func getSharedReading(_ input: Operations.GetSharedReading.Input) async throws -> Operations.GetSharedReading.Output {
        let shareId = input.path.shareId
        guard ShareId.isValid(shareId) else {
            throw JSONBody.schemaViolation(["shareId": "must be 10 letters or digits"])
        }
        // An expired link is gone for the app as for the page.
        guard let stored = try await readings.store.shared(shareId), !readings.sharing.hasExpired(stored) else {
            throw APIError.notFound("no shared reading with this id")
        }
        return .ok(.init(body: .json(.init(shared: stored, language: Language(acceptLanguage: input.headers.acceptLanguage), readings: readings))))
    }

    // MARK: Helpers

    var giveReading: GiveReading { GiveReading(readings: readings, accounts: checkAccount) }

    /// The signed-in caller allowed a paid reading (U6); 403 `entitlement_required` names what to buy.
    func purchaser(for kind: Reading.Kind) async throws -> GiveReading.Purchaser {
        let user = try RequestScope.requireUser()
        return try await giveReading.authorize(user, for: kind, from: RequestScope.clientNetworks.network)
    }

    func given(
        _ question: GiveReading.Question, by purchaser: GiveReading.Purchaser, on day: CivilDate, near position: (Double, Double)?,
        language header: String?
    ) async throws -> Components.Schemas.Reading {
        let given = try await giveReading(question, by: purchaser, on: day, near: position)
        let stored = given.stored
        return .init(
            stored.reading, id: stored.id, language: Language(acceptLanguage: header), shareUrl: readings.sharing.url(shareId: stored.shareId),
            places: given.placesToPray, ceremony: readings.content.ceremony(after: stored.reading))
    }
}
