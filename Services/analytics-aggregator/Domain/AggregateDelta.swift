import Foundation
import PlatformCore
import PlatformEvents

/// What a batch of events adds to the aggregates (N2), folded in memory so that each aggregate table gets
/// one statement per batch. Pure: the live consumer and a rebuild fold the same events to the same delta.
struct AggregateDelta: Equatable {
    struct DownloadKey: Hashable, Comparable {
        var day: String
        var app: String
        var platform: String
        static func < (a: Self, b: Self) -> Bool { (a.day, a.app, a.platform) < (b.day, b.app, b.platform) }
    }

    struct FeatureKey: Hashable, Comparable {
        var app: String
        var feature: String
        static func < (a: Self, b: Self) -> Bool { (a.app, a.feature) < (b.app, b.feature) }
    }

    /// A feature's uses on one day, for the dashboard's trends (N5).
    struct FeatureDayKey: Hashable, Comparable {
        var day: String
        var app: String
        var feature: String
        static func < (a: Self, b: Self) -> Bool { (a.day, a.app, a.feature) < (b.day, b.app, b.feature) }
    }

    /// A city's views on one day, for the dashboard's trends (N5).
    struct CityDayKey: Hashable, Comparable {
        var day: String
        var city: Int
        static func < (a: Self, b: Self) -> Bool { (a.day, a.city) < (b.day, b.city) }
    }

    /// A poll question's answers, or a survey service's or star count's submissions, on one day (N5).
    struct DayKey: Hashable, Comparable {
        var day: String
        var key: String
        static func < (a: Self, b: Self) -> Bool { (a.day, a.key) < (b.day, b.key) }
    }

    struct CityViews: Equatable {
        var views = 0
        /// The least name any event gave the city: order-free, so every fold agrees.
        var name: String?
    }

    struct YesNo: Equatable {
        var yes = 0
        var no = 0
    }

    struct ServiceTotals: Equatable {
        var submissions = 0
        var points = 0
        var belowGood = 0

        mutating func add(_ submission: SurveySubmitted) {
            submissions += 1
            points += submission.points
            if submission.belowGood { belowGood += 1 }
        }
    }

    var downloads: [DownloadKey: Int] = [:]
    var featureUses: [FeatureKey: Int] = [:]
    var featureUsers: [FeatureKey: Set<String>] = [:]
    var cities: [Int: CityViews] = [:]
    var featureUsesByDay: [FeatureDayKey: Int] = [:]
    var cityViewsByDay: [CityDayKey: Int] = [:]
    var poll: [String: YesNo] = [:]
    var services: [String: ServiceTotals] = [:]
    /// Overall ratings per star count.
    var overall: [Int: Int] = [:]
    /// The same per day, for the dashboard's date ranges (N5); the star count is the key's text.
    var pollByDay: [DayKey: YesNo] = [:]
    var servicesByDay: [DayKey: ServiceTotals] = [:]
    var overallByDay: [DayKey: Int] = [:]
    /// The survey's reasons (N4), each kept as written, without whose they were.
    var reasons: [SurveyReason] = []

    var isEmpty: Bool {
        downloads.isEmpty && featureUses.isEmpty && cities.isEmpty && poll.isEmpty && services.isEmpty && overall.isEmpty && reasons.isEmpty
    }

    mutating func add(_ event: TelemetryRecorded, day: String) {
        switch TelemetryKind(rawValue: event.kind) {
        case .install:
            downloads[DownloadKey(day: day, app: event.app, platform: event.platform ?? "unknown"), default: 0] += 1
        case .featureUsed:
            guard let feature = event.feature else { return }
            let key = FeatureKey(app: event.app, feature: feature)
            featureUses[key, default: 0] += 1
            featureUsers[key, default: []].insert(event.userKey)
            featureUsesByDay[FeatureDayKey(day: day, app: event.app, feature: feature), default: 0] += 1
        case .cityViewed:
            guard let city = event.cityId else { return }
            var views = cities[city] ?? CityViews()
            views.views += 1
            if let name = event.cityName { views.name = views.name.map { min($0, name) } ?? name }
            cities[city] = views
            cityViewsByDay[CityDayKey(day: day, city: city), default: 0] += 1
        case .screenViewed, nil:
            // Screen views are kept on the topic for replays; no aggregate reads them yet. A kind the ingest never
            // accepted counts nowhere.
            return
        }
    }

    mutating func add(_ answer: PollAnswered, day: String) {
        let key = DayKey(day: day, key: answer.questionId)
        if answer.answer {
            poll[answer.questionId, default: YesNo()].yes += 1
            pollByDay[key, default: YesNo()].yes += 1
        } else {
            poll[answer.questionId, default: YesNo()].no += 1
            pollByDay[key, default: YesNo()].no += 1
        }
    }

    mutating func add(_ submission: SurveySubmitted, day: String) {
        if submission.part == "overall" {
            let stars = submission.stars ?? 0
            overall[stars, default: 0] += 1
            overallByDay[DayKey(day: day, key: String(stars)), default: 0] += 1
            return
        }
        guard let service = submission.service else { return }
        services[service, default: ServiceTotals()].add(submission)
        servicesByDay[DayKey(day: day, key: service), default: ServiceTotals()].add(submission)
    }

    mutating func add(_ explained: SurveyExplained, at time: Date) {
        reasons.append(
            SurveyReason(
                part: explained.part, service: explained.service, points: explained.points, stars: explained.stars, why: explained.why, at: time))
    }

    /// One counted event, its payload decoded.
    enum Counted {
        case telemetry(TelemetryRecorded, day: String)
        case poll(PollAnswered, day: String)
        case survey(SurveySubmitted, day: String)
        case reason(SurveyExplained, at: Date)
    }

    /// The events this service counts, decoded once, with their ids; other types are left out. A payload that
    /// does not decode throws (the consumer then applies the batch one event at a time and dead-letters it).
    static func decode(_ events: [ReceivedEvent]) throws -> [(id: UUID, event: Counted)] {
        var decoded: [(id: UUID, event: Counted)] = []
        for event in events {
            switch event.header.type {
            case EventTypes.telemetryRecorded:
                decoded.append(
                    (
                        event.header.id,
                        .telemetry(try event.payload(as: TelemetryRecorded.self), day: CivilDate(clamping: event.header.occurredAt).description)
                    ))
            case EventTypes.pollAnswered:
                decoded.append(
                    (event.header.id, .poll(try event.payload(as: PollAnswered.self), day: CivilDate(clamping: event.header.occurredAt).description)))
            case EventTypes.surveySubmitted:
                decoded.append(
                    (
                        event.header.id,
                        .survey(try event.payload(as: SurveySubmitted.self), day: CivilDate(clamping: event.header.occurredAt).description)
                    ))
            case EventTypes.surveyExplained:
                let explained = try event.payload(as: SurveyExplained.self)
                guard ["service", "overall"].contains(explained.part) else {
                    throw EventDecodingError(reason: "survey.explained part must be service or overall")
                }
                decoded.append((event.header.id, .reason(explained, at: event.header.occurredAt)))
            default:
                continue
            }
        }
        return decoded
    }

    init(folding events: some Sequence<Counted>) {
        for event in events {
            switch event {
            case .telemetry(let telemetry, let day): add(telemetry, day: day)
            case .poll(let answer, let day): add(answer, day: day)
            case .survey(let submission, let day): add(submission, day: day)
            case .reason(let explained, let time): add(explained, at: time)
            }
        }
    }
}
