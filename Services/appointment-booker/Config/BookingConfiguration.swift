import Foundation
import PlatformCore
import PlatformEvents
import PlatformHTTP

/// appointment-booker's own settings, read once at start-up.
///
/// | variable | default |
/// |---|---|
/// | `APPOINTMENT_SLOT_MINUTES` | `60`: the length of every slot (5-480) |
/// | `APPOINTMENT_CANCEL_CUTOFF_HOURS` | `24`: a user cancels at least this long before the start |
/// | `APPOINTMENT_HORIZON_DAYS` | `180`: how far ahead a slot can be booked |
/// | `APPOINTMENT_REMINDER_LEAD_MINUTES` | `60`: the reminder is queued this long before the start |
/// | `APPOINTMENT_REMINDER_TICK_MS` | `30000`: how often due reminders are looked for |
/// | `DAILY_HOROSCOPE_TICK_MS` | `30000`: how often due daily horoscope notifications are looked for (B5) |
/// | `APPOINTMENT_SLOTS_CACHE_MS` | `1000`: how long a slot listing is answered from memory (0: never) |
/// | `APPOINTMENT_USERS_TOPIC`, `APPOINTMENT_BOOKINGS_TOPIC`, `APPOINTMENT_PLACES_TOPIC`, `APPOINTMENT_PLACE_REQUESTS_TOPIC` | the catalogue's `auth.users`, `appointments.bookings`, `places.places` and `appointments.place-requests` |
/// | `READING_KEY` | required, 32+ characters: the key of the readings' hash, so readings cannot be computed ahead elsewhere |
/// | `BOOKINGS_LIVE_PER_USER`, `BOOKINGS_LIVE_PER_USER_PER_PARTNER` | `10`, `3`: bookings one account holds that have not ended, in all and with one partner; past either 429 `too_many_bookings` |
/// | `READINGS_PER_ACCOUNT_DAY` | `200`: different readings one account keeps in any 24 hours; past it 429 `too_many_readings` with `Retry-After` |
/// | `READING_PLACES_RADIUS_METERS` | `20000`: how far places to pray are suggested after a bad reading |
/// | `PUBLIC_BASE_URL` | `http://localhost:8086`: where the public reaches this service; share links start with it |
/// | `SHARE_LINK_DAYS` | `30`: how long a shared reading's page is shown (1-3650); then 410 |
/// | `WORSHIP_REQUESTS_PER_HOUR` | `60`: new requests to places-importer for places of worship in any hour, for all members together (B4; an anonymous reading never asks); past it a reading says `looking` and asks later |
/// | `WORSHIP_REQUESTS_PER_NETWORK_PER_HOUR` | `5`: of those, the most one client network (a /24, a /56) may cause in any hour, so a few members cannot spend everyone's |
/// | `PARTNER_TERMS_VERSION`, `PARTNER_TERMS_URL` | `2026-11`, none: the fortune tellers' terms an application must accept (B6), and where to read them |
/// | `APPOINTMENT_PARTNER_APPLICATIONS_TOPIC` | the catalogue's `appointments.partner-applications` |
/// | `PAYMENT_WEBHOOK_SECRET` | none: the payment provider's signing secret, as auth's (B6); without it the partners' payment webhook answers 503 |
struct BookingConfiguration: Sendable {
    var slotMinutes: Int
    var cancelCutoff: Duration
    var horizonDays: Int
    var reminderLead: Duration
    var reminderTick: Duration
    /// `DAILY_HOROSCOPE_TICK_MS`: how often due daily horoscopes are looked for (B5).
    var dailyHoroscopeTick: Duration
    var slotsCacheTTL: Duration
    var usersTopic: String
    var bookingsTopic: String
    var placesTopic: String
    /// Where requests for places of worship go (B4).
    var placeRequestsTopic: String
    /// New requests for places of worship in any hour, for all members together (B4).
    var worshipRequestsPerHour: Int
    var worshipRequestsPerNetworkPerHour: Int
    /// `PAYMENT_WEBHOOK_SECRET`: the payment provider's signing secret (B6), the same as auth's; without it the
    /// partners' payment webhook answers 503.
    var paymentWebhookSecret: Secret?
    /// The fortune tellers' terms an application must accept (B6), and where to read them.
    var partnerTermsVersion: String
    var partnerTermsURL: String?
    var partnerApplicationsTopic: String
    var readingKey: String
    var readingsPerAccountDay: Int
    var liveBookingLimits: LiveBookingLimits
    var placesRadius: Double
    /// `PUBLIC_BASE_URL`, without a trailing slash: share links are absolute (B4).
    var publicBaseURL: String
    /// `SHARE_LINK_DAYS`: a shared reading's page is shown this long after the reading was made.
    var shareLinkDays: Int

    init(environment: EnvironmentReader) throws(ConfigError) {
        slotMinutes = try environment.int("APPOINTMENT_SLOT_MINUTES", default: 60, range: 5...480)
        cancelCutoff = .seconds(try environment.int("APPOINTMENT_CANCEL_CUTOFF_HOURS", default: 24, range: 0...720) * 3600)
        horizonDays = try environment.int("APPOINTMENT_HORIZON_DAYS", default: 180, range: 1...730)
        reminderLead = .seconds(try environment.int("APPOINTMENT_REMINDER_LEAD_MINUTES", default: 60, range: 1...10_080) * 60)
        reminderTick = try environment.milliseconds("APPOINTMENT_REMINDER_TICK_MS", default: 30_000)
        dailyHoroscopeTick = try environment.milliseconds("DAILY_HOROSCOPE_TICK_MS", default: 30_000)
        slotsCacheTTL = try environment.milliseconds("APPOINTMENT_SLOTS_CACHE_MS", default: 1_000, range: 0...60_000)
        usersTopic = environment.string("APPOINTMENT_USERS_TOPIC", default: TopicCatalogue.users.name)
        bookingsTopic = environment.string("APPOINTMENT_BOOKINGS_TOPIC", default: TopicCatalogue.appointments.name)
        placesTopic = environment.string("APPOINTMENT_PLACES_TOPIC", default: TopicCatalogue.places.name)
        placeRequestsTopic = environment.string("APPOINTMENT_PLACE_REQUESTS_TOPIC", default: TopicCatalogue.placeRequests.name)
        worshipRequestsPerHour = try environment.int("WORSHIP_REQUESTS_PER_HOUR", default: 60, range: 1...100_000)
        worshipRequestsPerNetworkPerHour = try environment.int("WORSHIP_REQUESTS_PER_NETWORK_PER_HOUR", default: 5, range: 1...100_000)
        paymentWebhookSecret = environment.string("PAYMENT_WEBHOOK_SECRET").map(Secret.init)
        partnerTermsVersion = environment.string("PARTNER_TERMS_VERSION", default: "2026-11")
        partnerTermsURL = environment.string("PARTNER_TERMS_URL")
        partnerApplicationsTopic = environment.string(
            "APPOINTMENT_PARTNER_APPLICATIONS_TOPIC", default: TopicCatalogue.partnerApplications.name)
        readingKey = try environment.requiredSecret("READING_KEY")
        readingsPerAccountDay = try environment.int("READINGS_PER_ACCOUNT_DAY", default: 200, range: 1...100_000)
        liveBookingLimits = LiveBookingLimits(
            perUser: try environment.int("BOOKINGS_LIVE_PER_USER", default: 10, range: 1...10_000),
            perUserPerPartner: try environment.int("BOOKINGS_LIVE_PER_USER_PER_PARTNER", default: 3, range: 1...10_000))
        placesRadius = Double(try environment.int("READING_PLACES_RADIUS_METERS", default: 20_000, range: 100...200_000))
        publicBaseURL = try environment.publicBaseURL(default: "http://localhost:8086")
        shareLinkDays = try environment.int("SHARE_LINK_DAYS", default: 30, range: 1...3_650)
    }
}
