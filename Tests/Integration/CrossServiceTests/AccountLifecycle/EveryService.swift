import Foundation
import HTTPTypes
import PlatformCore
import PlatformEvents
import PostgresNIO
import ServiceTestSupport
import TestSupport
import Testing

/// The six services at once, wired through one set of topics on the test broker as production wires them, every
/// token from auth's routes.
struct EveryService: Sendable {
    let auth: AuthTestHarness
    let warnings: WarningTestHarness
    let weather: WeatherTestHarness
    let places: PlacesTestHarness
    let booking: BookingTestHarness
    let analytics: AnalyticsTestHarness
    let usersTopic: String

    /// Each service's database under the service's name.
    var databases: [(String, TestDatabase)] {
        [
            ("auth", auth.db), ("weather-fetcher", weather.db), ("warning-detector", warnings.db), ("places-importer", places.db),
            ("appointment-booker", booking.db), ("analytics-aggregator", analytics.db),
        ]
    }

    /// The topics that name accounts and outlive a deletion (`auth.users` and `weather.user-cities` for their month,
    /// `analytics.telemetry` for good, in `TopicCatalogue`), under the names this run gave them.
    var keptTopics: [String: String] {
        [
            usersTopic: TopicCatalogue.users.name, warnings.userCitiesTopic: TopicCatalogue.userCities.name,
            analytics.topics["ANALYTICS_TELEMETRY_TOPIC"]: TopicCatalogue.telemetry.name,
        ]
    }

    static func run(_ body: @Sendable (EveryService) async throws -> Void) async throws {
        let authSettings = LifecycleAuth.trustingInstalls.merging(["PAYMENT_WEBHOOK_SECRET": AuthTestHarness.webhookSecret]) { $1 }
        try await LifecycleAuth.run(extraEnvironment: authSettings) { auth, users in
            try await WarningTestHarness.run(extraEnvironment: ["WARNING_USERS_TOPIC": users], tokens: auth.tokens) { warnings in
                let weatherWiring = [
                    "WEATHER_USERS_TOPIC": users, "WEATHER_USER_CITIES_TOPIC": warnings.userCitiesTopic,
                    "WEATHER_FORECASTS_TOPIC": warnings.forecastsTopic, "WEATHER_WARNINGS_TOPIC": warnings.warningsTopic,
                ]
                try await WeatherTestHarness.run(extraEnvironment: weatherWiring, tokens: auth.tokens) { weather in
                    try await PlacesTestHarness.run(extraEnvironment: ["PLACES_USERS_TOPIC": users], tokens: auth.tokens) { places in
                        let bookingWiring = [
                            "APPOINTMENT_USERS_TOPIC": users, "APPOINTMENT_BOOKINGS_TOPIC": warnings.appointmentsTopic,
                            "APPOINTMENT_PLACES_TOPIC": places.topic, "APPOINTMENT_PLACE_REQUESTS_TOPIC": places.requestsTopic,
                            "APPOINTMENT_PARTNER_APPLICATIONS_TOPIC": auth.partnerApplicationsTopic,
                            // The daily horoscope as soon as it is set, so that it reaches the phone before the deletion.
                            "DAILY_HOROSCOPE_TICK_MS": "200",
                        ]
                        try await BookingTestHarness.run(extraEnvironment: bookingWiring, tokens: auth.tokens) { booking in
                            let analyticsWiring = ["ANALYTICS_USERS_TOPIC": users, "ANALYTICS_USER_CITIES_TOPIC": warnings.userCitiesTopic]
                            try await AnalyticsTestHarness.run(extraEnvironment: analyticsWiring, tokens: auth.tokens) { analytics in
                                try await body(
                                    EveryService(
                                        auth: auth, warnings: warnings, weather: weather, places: places, booking: booking, analytics: analytics,
                                        usersTopic: users))
                            }
                        }
                    }
                }
            }
        }
    }
}
