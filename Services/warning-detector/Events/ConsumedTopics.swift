import PlatformCore
import PlatformEvents
import PlatformPostgres

/// warning-detector's handlers, one per topic it consumes besides the users topic (which the account router
/// takes first): forecasts, favourite changes, and the bookings topic's reminders.
enum ConsumedTopics {
    static func handlers(detector: WarningDetector, warnings: WarningStore, erased: ErasedAccounts) -> TopicHandlers {
        TopicHandlers([
            (TopicCatalogue.forecasts, ForecastsHandler(detector: detector, warnings: warnings)),
            (TopicCatalogue.userCities, UserCitiesHandler(erased: erased)),
            (TopicCatalogue.appointments, BookingsHandler()),
        ])
    }
}
