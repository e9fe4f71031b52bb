import Foundation
import PlatformCore
import PlatformHTTP

/// Conversions from the domain to the generated schemas. Times of bookings are shown in the partner's zone.
extension Components.Schemas.Partner {
    /// `showingContact`: whether the caller may read the contact details (`ContactDisclosure`); the partner itself
    /// and admins always may.
    init(_ partner: Partner, showingContact: Bool = true) {
        self.init(
            id: AccountKey.of(partner.id), name: partner.name, description: partner.description,
            contact: showingContact ? partner.contact : nil, contactRequires: showingContact ? nil : .contactFortuneTeller,
            photoUrl: partner.photoURL, languages: partner.languages.compactMap(Components.Schemas.Language.init(rawValue:)),
            timeZone: partner.timeZone, approved: partner.approved,
            feeStatus: Components.Schemas.PaymentStatus(rawValue: partner.feeStatus.rawValue) ?? .unpaid,
            promoted: partner.promoted, listed: partner.listed, feeMarkedBy: partner.feeMarkedBy.flatMap(FeeMarkedByPayload.init(rawValue:)))
    }
}

extension Components.Schemas.Availability {
    init(_ availability: Availability) {
        self.init(
            weekly: availability.weekly.map { .init(weekday: $0.weekday, start: $0.start.description, end: $0.end.description) },
            exceptions: availability.exceptions.map {
                .init(date: $0.date.description, kind: $0.kind == .off ? .off : .extra, start: $0.start?.description, end: $0.end?.description)
            })
    }
}

extension Components.Schemas.Booking {
    init(_ booking: Booking) {
        let clock = ZonedClock(identifier: booking.timeZone) ?? .utc
        self.init(
            id: AccountKey.of(booking.id), partnerId: AccountKey.of(booking.partnerId), userId: booking.userId,
            startsAt: clock.format(BookingTime.seconds(booking.startsAt)), endsAt: clock.format(BookingTime.seconds(booking.endsAt)),
            status: booking.status == .cancelled ? .cancelled : .booked,
            cancelledBy: booking.cancelledBy.flatMap { CancelledByPayload(rawValue: $0.rawValue) }, cancelReason: booking.cancelReason,
            createdAt: booking.createdAt, bookerName: booking.booker.name, bookerContact: booking.booker.contact)
    }
}

extension Components.Schemas.Ad {
    init(_ ad: Ad) {
        self.init(
            id: AccountKey.of(ad.id), partnerId: AccountKey.of(ad.partnerId), startsAt: ad.startsAt, endsAt: ad.endsAt,
            paymentStatus: Components.Schemas.PaymentStatus(rawValue: ad.paymentStatus.rawValue) ?? .unpaid, active: ad.active,
            checkoutReference: ad.checkoutReference, markedBy: ad.markedBy.flatMap(MarkedByPayload.init(rawValue:)))
    }
}

extension Components.Responses.PartnerPage.Body.JsonPayload {
    /// A page from `limit + 1` rows: the extra row only says there are more.
    init(page rows: [Partner], paging: (page: Int, size: Int, offset: Int), showingContact: (Partner) -> Bool = { _ in true }) {
        self.init(
            partners: rows.prefix(paging.size).map { Components.Schemas.Partner($0, showingContact: showingContact($0)) }, page: paging.page,
            pageSize: paging.size,
            hasMore: rows.count > paging.size)
    }
}

extension Components.Responses.BookingPage.Body.JsonPayload {
    init(page rows: [Booking], paging: (page: Int, size: Int, offset: Int)) {
        self.init(
            bookings: rows.prefix(paging.size).map(Components.Schemas.Booking.init), page: paging.page, pageSize: paging.size,
            hasMore: rows.count > paging.size)
    }
}
