import Foundation
import Hummingbird
import Logging
import OpenAPIHummingbird
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PlatformRuntime
import Prometheus

/// Builds appointment-booker from its environment: the platform runtime, the consumer of auth's account
/// events (roles, bans, entitlements), the reminder scheduler, and the HTTP API for partners, availability
/// and bookings (B1-B3, U6). Tests call this same function with test configuration.
package func buildApplication(
    environment: EnvironmentReader, registry: PrometheusCollectorRegistry, logger: Logger
) async throws -> some ApplicationProtocol {
    let runtime = try await PlatformRuntime(
        identity: .appointmentBooker, environment: environment, migrations: AppointmentBookerMigrations.all, registry: registry, logger: logger)
    let configuration = try BookingConfiguration(environment: environment)
    let client = runtime.postgres
    let bookings = BookingStore(
        client: client, logger: runtime.logger, topic: configuration.bookingsTopic, limits: configuration.liveBookingLimits)

    let partners = PartnerStore(client: client, logger: runtime.logger)
    let slotListings = SlotListingCache.slotListings(ttl: configuration.slotsCacheTTL)

    let document = try OpenAPIDocument(in: Bundle.module)
    let access = try document.operationAccess()
    let router = runtime.makeRouter(document: document)
    // The hot slot listing is hand-registered (answers from a short cache of encoded bodies); it takes no body.
    SlotListingRoute(
        partners: partners, bookings: bookings, slots: SlotCalculator(slotMinutes: configuration.slotMinutes),
        configuration: configuration, cache: slotListings
    ).add(to: runtime.hotRoutes(on: router))
    let readings = ReadingService(
        content: try ReadingContent.bundled(), key: configuration.readingKey,
        store: ReadingStore(client: client, logger: runtime.logger, dailyLimit: configuration.readingsPerAccountDay),
        worship: WorshipPlaceStore(client: client, logger: runtime.logger),
        worshipRequests: WorshipRequestStore(
            client: client, topic: configuration.placeRequestsTopic, perHour: configuration.worshipRequestsPerHour,
            perNetworkPerHour: configuration.worshipRequestsPerNetworkPerHour, logger: runtime.logger),
        placesRadius: configuration.placesRadius,
        sharing: .init(baseURL: configuration.publicBaseURL, lifetime: TimeInterval(configuration.shareLinkDays) * 86_400))
    // The daily horoscope, hand-registered too: answers from a cache of encoded bodies.
    HoroscopeRoute(readings: readings)
        .add(to: runtime.hotRoutes(on: router))
    // The public pages share links open (B4): HTML with link-preview tags, no token.
    ShareRoute(readings: readings, card: try ShareRoute.bundledCard()).add(to: runtime.hotRoutes(on: router))
    // Public routes take a token when it comes (a bad one is refused); the signed-in, partner and admin
    // paths require one before the request is read.
    try BookingAPI(
        partners: partners, bookings: bookings, configuration: configuration, slotListings: slotListings, readings: readings,
        prayers: PrayerStore(client: client, logger: runtime.logger),
        dailyHoroscopes: DailyHoroscopeStore(client: client, logger: runtime.logger),
        payments: PartnerPaymentStore(client: client, logger: runtime.logger),
        applications: PartnerApplicationStore(client: client, topic: configuration.partnerApplicationsTopic, logger: runtime.logger),
        accountStates: PostgresAccountStates(client: client, logger: runtime.logger)
    )
    .registerHandlers(
        on: runtime.apiRoutes(
            on: router, access: access,
            // The payment provider's notifications (B6) are signed over the raw body: checked before it is read.
            before: [OperationFilteredMiddleware(access, [.signature], PaymentSignatureMiddleware(secret: configuration.paymentWebhookSecret))]),
        configuration: .init(dateTranscoder: RFC3339DateTranscoder()))

    let consumer = try runtime.makeConsumer(
        topics: [
            ConsumedTopic(TopicCatalogue.users, name: configuration.usersTopic),
            ConsumedTopic(TopicCatalogue.places, name: configuration.placesTopic),
        ],
        handler: TopicHandlers([
            (
                TopicCatalogue.users,
                UsersTopicHandler(
                    bookingsTopic: configuration.bookingsTopic,
                    lifecycle: runtime.accountLifecycle(AppointmentsOwner(bookingsTopic: configuration.bookingsTopic)))
            ),
            (TopicCatalogue.places, PlacesTopicHandler()),
        ]))
    let reminders = ReminderScheduler(
        client: client, lead: configuration.reminderLead, tick: configuration.reminderTick, topic: configuration.bookingsTopic,
        startGate: runtime.startGate, logger: runtime.logger)
    let dailyHoroscopes = DailyHoroscopeScheduler(
        client: client, engine: readings.engine, content: readings.content, tick: configuration.dailyHoroscopeTick,
        topic: configuration.bookingsTopic, startGate: runtime.startGate, logger: runtime.logger)
    return runtime.makeApplication(router: router, consumers: [consumer], services: [reminders, dailyHoroscopes])
}
