import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// Booking, cancelling and moving appointments (B2, B3, U6).
extension BookingAPI {
    func bookSlot(_ input: Operations.BookSlot.Input) async throws -> Operations.BookSlot.Output {
        let user = try RequestScope.requireUser()
        // Before the request is read, as the access rules answer (BookSlot checks it again for any caller).
        guard user.role != .guest else { throw APIError.guestsNotAllowed }
        let partnerId = try Self.uuid(input.path.partnerId, field: "partnerId")
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        // A key of blanks reaches us empty (HTTP trims header values): no key, as if none was sent.
        let key = RequestText.nonBlank(input.headers.idempotencyKey)
        if let key, RequestText.length(key) > 200 {
            throw JSONBody.schemaViolation(["Idempotency-Key": "must be 1 to 200 characters"])
        }
        let booking = try await BookSlot(partners: partners, bookings: bookings, choice: slotChoice)(
            user, partner: partnerId, startsAt: body.startsAt, idempotencyKey: key,
            booker: try Self.booker(name: body.name, contact: body.contact),
            now: Date())
        slotListings.invalidate(partner: booking.partnerId)
        return .created(.init(headers: .init(location: "/v1/bookings/\(booking.id)"), body: .json(.init(booking))))
    }

    func listMyBookings(_ input: Operations.ListMyBookings.Input) async throws -> Operations.ListMyBookings.Output {
        let user = try RequestScope.requireUser()
        let paging = try Self.paging(input.query.page, input.query.pageSize)
        let found = try await bookings.list(.user(AccountKey.of(user.id)), limit: paging.size + 1, offset: paging.offset)
        return .ok(.init(body: .json(.init(page: found, paging: paging))))
    }

    func getBooking(_ input: Operations.GetBooking.Input) async throws -> Operations.GetBooking.Output {
        let caller = try RequestScope.requireUser()
        return .ok(.init(body: .json(.init(try await visibleBooking(input.path.bookingId, to: caller)))))
    }

    /// Its partner or an admin moves a booking to another free slot of the same partner.
    func moveBooking(_ input: Operations.MoveBooking.Input) async throws -> Operations.MoveBooking.Output {
        let caller = try RequestScope.requireUser()
        let (booking, actor) = try await authorizedChange(input.path.bookingId, by: caller, for: .move)
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let move = MoveBooking(partners: partners, bookings: bookings, choice: slotChoice)
        let moved = try await move(booking, to: body.startsAt, by: actor, now: Date())
        slotListings.invalidate(partner: moved.partnerId)
        return .ok(.init(body: .json(.init(moved))))
    }

    /// Its user before the cut-off, its partner with a reason, or an admin, cancels a booking not yet begun.
    func cancelBooking(_ input: Operations.CancelBooking.Input) async throws -> Operations.CancelBooking.Output {
        let caller = try RequestScope.requireUser()
        let (booking, actor) = try await authorizedChange(input.path.bookingId, by: caller, for: .cancel)
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        if let reason = body.reason, RequestText.length(reason) > 500 { throw JSONBody.schemaViolation(["reason": "is at most 500 characters"]) }
        let reason = RequestText.nonBlank(body.reason)
        let cancel = CancelBooking(bookings: bookings, cutoffSeconds: Double(configuration.cancelCutoff.components.seconds))
        guard let cancelled = try await cancel(booking.id, by: actor, reason: reason, now: Date()) else { throw BookingErrors.bookingNotFound }
        slotListings.invalidate(partner: cancelled.partnerId)
        return .ok(.init(body: .json(.init(cancelled))))
    }

    // MARK: Rules

    /// What the user shares with the partner: trimmed; blank is not shared; at most 100 and 200 characters as the
    /// document says (in code points, as JSON Schema counts).
    static func booker(name: String?, contact: String?) throws -> Booker {
        var problems: [String: String] = [:]
        if let name, RequestText.length(name) > 100 { problems["name"] = "is at most 100 characters" }
        if let contact, RequestText.length(contact) > 200 { problems["contact"] = "is at most 200 characters" }
        guard problems.isEmpty else { throw JSONBody.schemaViolation(problems) }
        return Booker(name: RequestText.nonBlank(name), contact: RequestText.nonBlank(contact))
    }

    /// A partner token is not enough once auth's events said otherwise: a banned account, or one no longer a
    /// partner, is refused before its token expires (403).
    func checkActivePartner(_ caller: AuthenticatedUser) async throws {
        try await checkAccount.activePartner(caller)
    }

    /// The booking `caller` may make `change` to, and how it stands to it (`AuthorizeBookingChange`): 404 for a
    /// booking it does not see, 403 for a change it may not make or an account that is no longer an active partner.
    func authorizedChange(
        _ text: String, by caller: AuthenticatedUser, for change: BookingChangeRules.Change
    ) async throws -> (booking: Booking, actor: BookingActor) {
        let id = try Self.uuid(text, field: "bookingId")
        return try await AuthorizeBookingChange(bookings: bookings, accounts: checkAccount)(id, by: caller, for: change)
    }

    /// The booking when the caller is its user, its partner or an admin; 404 otherwise (its existence is not told).
    func visibleBooking(_ text: String, to caller: AuthenticatedUser) async throws -> Booking {
        let id = try Self.uuid(text, field: "bookingId")
        guard let booking = try await bookings.find(id), BookingActor.of(caller, on: booking) != nil else {
            throw BookingErrors.bookingNotFound
        }
        return booking
    }
}
