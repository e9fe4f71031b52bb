import PlatformHTTP

/// The booking rules' refusals (B2, B3, U6), one stable code each.
enum BookingErrors {
    static let partnerNotFound = APIError(.notFound, code: "partner_not_found", message: "no listed partner with this id")
    static let bookingNotFound = APIError(.notFound, code: "booking_not_found", message: "no booking with this id for this account")
    static let adNotFound = APIError(.notFound, code: "ad_not_found", message: "no ad with this id for this partner")
    static let applicationExists = APIError(
        .conflict, code: "application_exists", message: "this account's application is pending or approved already")
    static let applicationNotFound = APIError(.notFound, code: "application_not_found", message: "this account has not applied")
    static let alreadyDecided = APIError(.conflict, code: "already_decided", message: "only a pending application is decided")
    static func termsNotCurrent(_ current: String) -> APIError {
        APIError(
            .unprocessableContent, code: "terms_not_current", message: "accept the current terms (version \(current)) to apply",
            details: ["termsVersion": current])
    }
    static let unknownPurchase = APIError(
        .notFound, code: "unknown_purchase", message: "the reference names no partner's fee and no ad (fee:<partner id> or ad:<ad id>)")
    static let entitlementRequired = APIError(
        .forbidden, code: "entitlement_required", message: "booking a fortune teller needs the contact_fortune_teller feature")
    static let accountBanned = APIError(.forbidden, code: "account_banned", message: "this account is banned")
    static let slotInPast = APIError(.unprocessableContent, code: "slot_in_past", message: "the slot has already begun")
    static let beyondHorizon = APIError(.unprocessableContent, code: "outside_availability", message: "the slot is further ahead than bookings open")
    static let outsideAvailability = APIError(
        .unprocessableContent, code: "outside_availability", message: "the time is not one of the partner's free slots")
    static let partnerNotBookable = APIError(
        .unprocessableContent, code: "partner_not_bookable", message: "the partner is not approved, or its fee is unpaid")
    static let slotTaken = APIError(.conflict, code: "slot_taken", message: "the slot was booked by someone else")
    static let idempotencyKeyReused = APIError(
        .unprocessableContent, code: "idempotency_key_reused", message: "this Idempotency-Key was used for another booking")
    static let cutoffPassed = APIError(
        .unprocessableContent, code: "cancel_cutoff_passed", message: "it is too close to the appointment to cancel it")
    static let reasonRequired = APIError(.unprocessableContent, code: "reason_required", message: "a partner gives a reason to cancel")
    static let alreadyStarted = APIError(.unprocessableContent, code: "already_started", message: "the appointment has already begun")
    static let alreadyCancelled = APIError(.conflict, code: "already_cancelled", message: "the booking is cancelled already")
    static let bookingCancelled = APIError(.unprocessableContent, code: "booking_cancelled", message: "a cancelled booking cannot be moved")
    static let notAPartner = APIError(
        .unprocessableContent, code: "not_a_partner", message: "auth has not made this account a partner (user.role-changed)")
    static let busy = APIError(
        .serviceUnavailable, code: "busy", message: "the booking collided with other changes; try again", headers: [.retryAfter: "1"])
    static let partnerExists = APIError(.conflict, code: "partner_exists", message: "this account has a partner profile already")
    static let noProfile = APIError(.notFound, code: "partner_not_found", message: "this account has no partner profile yet; an admin adds it")
    static func unknownTimeZone(_ field: String) -> APIError {
        APIError(
            .unprocessableContent, code: "unknown_time_zone", message: "\(field) must be an IANA time zone such as Asia/Bangkok",
            details: [field: "is not an IANA time zone"])
    }
}

extension BookingErrors {
    /// The HTTP answer to a refusal of the booking rules: the one place they become HTTP errors.
    static func answer(for refusal: BookingRefusal) -> APIError {
        switch refusal {
        case .guestsNotAllowed: APIError.guestsNotAllowed
        case .partnerNotFound: partnerNotFound
        case .partnerNotBookable: partnerNotBookable
        case .slotInPast: slotInPast
        case .beyondHorizon: beyondHorizon
        case .outsideAvailability: outsideAvailability
        case .slotTaken: slotTaken
        case .idempotencyKeyReused: idempotencyKeyReused
        case .entitlementRequired: entitlementRequired
        case .accountBanned: accountBanned
        case .busy: busy
        case .tooManyLiveBookings(let held, let withPartner, let retryAfterSeconds):
            APIError.tooManyRequests(
                code: "too_many_bookings",
                message: withPartner
                    ? "this account already holds \(held) bookings with this partner that have not ended"
                    : "this account already holds \(held) bookings that have not ended; cancel one or wait until one has passed",
                retryAfterSeconds: retryAfterSeconds)
        }
    }

    /// The HTTP answer to an account whose state refuses what its token asks.
    static func answer(for refusal: AccountRefusal) -> APIError {
        switch refusal {
        case .accountBanned: accountBanned
        case .notAPartner, .notTheProfilesOwner: APIError.forbidden
        case .entitlementRequired(let entitlement):
            APIError(
                .forbidden, code: "entitlement_required", message: "this reading needs the \(entitlement) feature; buy it in the app",
                details: ["entitlement": entitlement])
        }
    }

    /// The HTTP answer to a reading past the account's daily limit.
    static func answer(for refusal: ReadingStore.TooManyReadings) -> APIError {
        APIError.tooManyRequests(
            code: "too_many_readings",
            message: "this account has kept \(refusal.limit) different readings in the last 24 hours; the same ones can still be read again",
            retryAfterSeconds: refusal.retryAfterSeconds)
    }

    /// The HTTP answer to a refusal of the cancellation rules.
    static func answer(for refusal: CancellationRules.Refusal) -> APIError {
        switch refusal {
        case .alreadyCancelled: alreadyCancelled
        case .alreadyStarted: alreadyStarted
        case .cutoffPassed: cutoffPassed
        case .reasonRequired: reasonRequired
        }
    }

    /// The HTTP answer to three cards a tarot reading cannot be drawn from.
    static func answer(for refusal: TarotDraw.Refusal) -> APIError {
        switch refusal {
        case .notThree: JSONBody.schemaViolation(["cards": "must name exactly 3 cards"])
        case .unknownCard(let index, let id):
            APIError(
                .unprocessableContent, code: "unknown_card", message: "\(id) is not a card of the deck (see /v1/readings/tarot/cards)",
                details: ["cards[\(index)]": "is not a card of the deck"])
        case .notDistinct: APIError(.unprocessableContent, code: "cards_not_distinct", message: "pick three different cards")
        }
    }
}

extension BookingRefusal: HTTPRefusal {
    package var answer: APIError { BookingErrors.answer(for: self) }
}

extension AccountRefusal: HTTPRefusal {
    package var answer: APIError { BookingErrors.answer(for: self) }
}

extension TooManyReadings: HTTPRefusal {
    package var answer: APIError { BookingErrors.answer(for: self) }
}

extension CancellationRules.Refusal: HTTPRefusal {
    package var answer: APIError { BookingErrors.answer(for: self) }
}

extension TarotDraw.Refusal: HTTPRefusal {
    package var answer: APIError { BookingErrors.answer(for: self) }
}

extension MoveBooking.Refusal: HTTPRefusal {
    package var answer: APIError { self == .cancelled ? BookingErrors.bookingCancelled : BookingErrors.alreadyStarted }
}

extension BookingChangeRules.Refusal: HTTPRefusal {
    /// A booking the caller does not see is not told to exist.
    package var answer: APIError { self == .notVisible ? BookingErrors.bookingNotFound : APIError.forbidden }
}
