import PlatformCore
import PlatformEvents
import PlatformPostgres

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

    /// What a rebuild reads (`RebuildRetention`): the telemetry topic, whose events the aggregates are counted from.
    /// The other two give facts that are not per generation (survey accounts, city names), applied live once.
    static func rebuilt(_ configuration: AnalyticsConfiguration) -> [ConsumedTopic] {
        [ConsumedTopic(TopicCatalogue.telemetry, name: configuration.telemetryTopic)]
    }

    /// The handler of the three: the live consumer's (`target` nil: the current and building generations) or a
    /// rebuild's (only generation `target`). `erased`: the service's erased accounts, whose telemetry counts without its key.
    static func handlers(
        _ configuration: AnalyticsConfiguration, target: Int?, lifecycle: AccountLifecycleEvents, erased: ErasedAccounts
    ) -> AnalyticsTopicHandlers {
        AnalyticsTopicHandlers(
            telemetry: TelemetryTopicHandler(
                writer: AggregateWriter(exactUsersLimit: configuration.exactUsersLimit, erased: erased), target: target),
            users: UsersTopicHandler(coupons: SurveyCoupons(windowDays: configuration.surveyCouponWindowDays), lifecycle: lifecycle),
            userCities: UserCitiesTopicHandler(),
            traced: target == nil)
    }
}
