import Shared

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
    }

    var downloads: [DownloadKey: Int] = [:]
    var featureUses: [FeatureKey: Int] = [:]
    var featureUsers: [FeatureKey: Set<String>] = [:]
    var cities: [Int: CityViews] = [:]
    var poll: [String: YesNo] = [:]
    var services: [String: ServiceTotals] = [:]
    /// Overall ratings per star count.
    var overall: [Int: Int] = [:]

    var isEmpty: Bool {
        downloads.isEmpty && featureUses.isEmpty && cities.isEmpty && poll.isEmpty && services.isEmpty && overall.isEmpty
    }

    mutating func add(_ event: TelemetryRecorded, day: String) {
        switch event.kind {
        case "install":
            downloads[DownloadKey(day: day, app: event.app, platform: event.platform ?? "unknown"), default: 0] += 1
        case "feature_used":
            guard let feature = event.feature else { return }
            let key = FeatureKey(app: event.app, feature: feature)
            featureUses[key, default: 0] += 1
            featureUsers[key, default: []].insert(event.userKey)
        case "city_viewed":
            guard let city = event.cityId else { return }
            var views = cities[city] ?? CityViews()
            views.views += 1
            if let name = event.cityName { views.name = views.name.map { min($0, name) } ?? name }
            cities[city] = views
        default:
            // Screen views are kept on the topic for replays; no aggregate reads them yet.
            return
        }
    }

    mutating func add(_ answer: PollAnswered) {
        if answer.answer { poll[answer.questionId, default: YesNo()].yes += 1 } else { poll[answer.questionId, default: YesNo()].no += 1 }
    }

    mutating func add(_ submission: SurveySubmitted) {
        if submission.part == "overall" {
            overall[submission.stars ?? 0, default: 0] += 1
            return
        }
        guard let service = submission.service else { return }
        var totals = services[service] ?? ServiceTotals()
        totals.submissions += 1
        totals.points += submission.points
        if submission.belowGood { totals.belowGood += 1 }
        services[service] = totals
    }

    /// Folds the events this service aggregates; others (and payloads that do not decode) are left to the
    /// handler, which dead-letters undecodable ones before folding.
    static func fold(_ events: [ReceivedEvent]) throws -> AggregateDelta {
        var delta = AggregateDelta()
        for event in events {
            switch event.header.type {
            case EventTypes.telemetryRecorded:
                delta.add(try event.payload(as: TelemetryRecorded.self), day: UTCDay.of(event.header.occurredAt))
            case EventTypes.pollAnswered:
                delta.add(try event.payload(as: PollAnswered.self))
            case EventTypes.surveySubmitted:
                delta.add(try event.payload(as: SurveySubmitted.self))
            default:
                continue
            }
        }
        return delta
    }
}
