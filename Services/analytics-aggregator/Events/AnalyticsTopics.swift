import PlatformEvents

/// The topics analytics-aggregator reads: its own telemetry (ingest, poll, survey), auth's accounts (who takes
/// the survey) and weather's favourites (city names).
enum AnalyticsTopics {
    static func consumed(_ configuration: AnalyticsConfiguration) -> [ConsumedTopic] {
        [
            ConsumedTopic(TopicCatalogue.telemetry, name: configuration.telemetryTopic),
            ConsumedTopic(TopicCatalogue.users, name: configuration.usersTopic),
            ConsumedTopic(TopicCatalogue.userCities, name: configuration.userCitiesTopic),
        ]
    }
}
