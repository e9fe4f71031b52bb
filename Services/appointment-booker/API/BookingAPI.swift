import Foundation
import PlatformCore
import PlatformHTTP

/// The appointment-booker API generated from `openapi.yaml` (B1-B3, U6): listed partners and their slots
/// (public), booking and cancelling (signed in), the partner's own profile, availability and bookings, and
/// the admin's partner approval, fees, ads and bookings. Every operation runs behind an optional
/// `AccessTokenMiddleware`; signed-in operations take the caller from `RequestScope`.
struct BookingAPI: APIProtocol {
    let partners: PartnerStore
    let bookings: BookingStore
    let configuration: BookingConfiguration
    let slots: SlotCalculator
    /// Dropped for a partner on every change this instance makes to its bookings, availability or profile.
    let slotListings: SlotListingCache
    let readings: ReadingService
    let prayers: PrayerStore
    let dailyHoroscopes: DailyHoroscopeStore
    let payments: PartnerPaymentStore
    let applications: PartnerApplicationStore
    /// The account checks over the states auth's events left.
    let checkAccount: CheckAccount

    init(
        partners: PartnerStore, bookings: BookingStore, configuration: BookingConfiguration, slotListings: SlotListingCache,
        readings: ReadingService, prayers: PrayerStore, dailyHoroscopes: DailyHoroscopeStore, payments: PartnerPaymentStore,
        applications: PartnerApplicationStore, accountStates: any AccountStates
    ) {
        checkAccount = CheckAccount(states: accountStates)
        self.payments = payments
        self.applications = applications
        self.readings = readings
        self.dailyHoroscopes = dailyHoroscopes
        self.prayers = prayers
        self.partners = partners
        self.bookings = bookings
        self.configuration = configuration
        self.slotListings = slotListings
        slots = SlotCalculator(slotMinutes: configuration.slotMinutes)
    }

    static func uuid(_ text: String, field: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw JSONBody.schemaViolation([field: "must be a UUID"]) }
        return id
    }

    /// A zone the caller named, or 422 naming the field.
    static func clock(_ identifier: String, field: String) throws -> ZonedClock {
        guard RequestText.length(identifier) <= 64, let clock = ZonedClock(identifier: identifier) else {
            throw BookingErrors.unknownTimeZone(field)
        }
        return clock
    }

    /// A partner's stored zone (checked when written; UTC should the system's zone data drop it).
    var slotChoice: SlotChoice { SlotChoice(slots: slots, horizonDays: configuration.horizonDays) }

    /// The page and page size after the shared range check.
    static func paging(_ page: Int?, _ pageSize: Int?) throws -> (page: Int, size: Int, offset: Int) {
        try Paging.resolve(page: page, pageSize: pageSize)
    }
}
