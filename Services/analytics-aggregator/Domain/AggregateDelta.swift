import Foundation
import PlatformCore
import PlatformEvents

/// What a batch of events adds to the aggregates (N2), folded in memory so that each aggregate table gets
/// one statement per batch. Pure: the live consumer and a rebuild fold the same events to the same delta.
package struct AggregateDelta: Equatable {
    package struct DownloadKey: Hashable, Comparable {
        package var day: String
        package var app: String
        package var platform: String

        package init(day: String, app: String, platform: String) {
            self.day = day
            self.app = app
            self.platform = platform
        }
        package static func < (a: Self, b: Self) -> Bool { (a.day, a.app, a.platform) < (b.day, b.app, b.platform) }
    }

    package struct FeatureKey: Hashable, Comparable {
        package var app: String
        package var feature: String

        package init(app: String, feature: String) {
            self.app = app
            self.feature = feature
        }
        package static func < (a: Self, b: Self) -> Bool { (a.app, a.feature) < (b.app, b.feature) }
    }

    /// A feature's uses on one day, for the dashboard's trends (N5).
    package struct FeatureDayKey: Hashable, Comparable {
        package var day: String
        package var app: String
        package var feature: String

        package init(day: String, app: String, feature: String) {
            self.day = day
            self.app = app
            self.feature = feature
        }
        package static func < (a: Self, b: Self) -> Bool { (a.day, a.app, a.feature) < (b.day, b.app, b.feature) }
    }

    /// A city's views on one day, for the dashboard's trends (N5).
    package struct CityDayKey: Hashable, Comparable {
        package var day: String
        package var city: Int

        package init(day: String, city: Int) {
            self.day = day
            self.city = city
        }
        package static func < (a: Self, b: Self) -> Bool { (a.day, a.city) < (b.day, b.city) }
    }

    /// A poll question's answers, or a survey service's or star count's submissions, on one day (N5).
    package struct DayKey: Hashable, Comparable {
        package var day: String
        package var key: String

        package init(day: String, key: String) {
            self.day = day
            self.key = key
        }
        package static func < (a: Self, b: Self) -> Bool { (a.day, a.key) < (b.day, b.key) }
    }

    package struct CityViews: Equatable {
        package var views = 0
        /// The least name any event gave the city: order-free, so every fold agrees.
        package var name: String?

        package init(views: Int = 0, name: String? = nil) {
            self.views = views
            self.name = name
        }
    }

    package struct YesNo: Equatable {
        package var yes = 0
        package var no = 0

        package init(yes: Int = 0, no: Int = 0) {
            self.yes = yes
            self.no = no
        }
    }

    package struct ServiceTotals: Equatable {
        package var submissions = 0
        package var points = 0
        package var belowGood = 0

        package init(submissions: Int = 0, points: Int = 0, belowGood: Int = 0) {
            self.submissions = submissions
            self.points = points
            self.belowGood = belowGood
        }

        package mutating func add(_ submission: SurveySubmitted) {
            submissions += 1
            points += submission.points
            if submission.belowGood { belowGood += 1 }
        }
    }

    package var downloads: [DownloadKey: Int] = [:]
    package var featureUses: [FeatureKey: Int] = [:]
    package var featureUsers: [FeatureKey: Set<String>] = [:]
    package var cities: [Int: CityViews] = [:]
    package var featureUsesByDay: [FeatureDayKey: Int] = [:]
    package var cityViewsByDay: [CityDayKey: Int] = [:]
    package var poll: [String: YesNo] = [:]
    package var services: [String: ServiceTotals] = [:]
    /// Overall ratings per star count.
    package var overall: [Int: Int] = [:]
    /// The same per day, for the dashboard's date ranges (N5); the star count is the key's text.
    package var pollByDay: [DayKey: YesNo] = [:]
    package var servicesByDay: [DayKey: ServiceTotals] = [:]
    package var overallByDay: [DayKey: Int] = [:]
    /// The survey's reasons (N4), each kept as written, without whose they were.
    package var reasons: [SurveyReason] = []

    package var isEmpty: Bool {
        downloads.isEmpty && featureUses.isEmpty && cities.isEmpty && poll.isEmpty && services.isEmpty && overall.isEmpty && reasons.isEmpty
    }

    package mutating func add(_ event: TelemetryRecorded, day: String) {
        switch event.kind {
        case .install:
            downloads[DownloadKey(day: day, app: event.app.rawValue, platform: event.platform?.rawValue ?? "unknown"), default: 0] += 1
        case .featureUsed:
            guard let feature = event.feature else { return }
            let key = FeatureKey(app: event.app.rawValue, feature: feature)
            featureUses[key, default: 0] += 1
            featureUsers[key, default: []].insert(event.userKey)
            featureUsesByDay[FeatureDayKey(day: day, app: event.app.rawValue, feature: feature), default: 0] += 1
        case .cityViewed:
            guard let city = event.cityId else { return }
            var views = cities[city] ?? CityViews()
            views.views += 1
            if let name = event.cityName { views.name = views.name.map { min($0, name) } ?? name }
            cities[city] = views
            cityViewsByDay[CityDayKey(day: day, city: city), default: 0] += 1
        case .screenViewed:
            // Screen views are kept on the topic for replays; no aggregate reads them yet.
            return
        }
    }

    package mutating func add(_ answer: PollAnswered, day: String) {
        let key = DayKey(day: day, key: answer.questionId)
        if answer.answer {
            poll[answer.questionId, default: YesNo()].yes += 1
            pollByDay[key, default: YesNo()].yes += 1
        } else {
            poll[answer.questionId, default: YesNo()].no += 1
            pollByDay[key, default: YesNo()].no += 1
        }
    }

    package mutating func add(_ submission: SurveySubmitted, day: String) {
        if submission.part == .overall {
            let stars = submission.stars ?? 0
            overall[stars, default: 0] += 1
            overallByDay[DayKey(day: day, key: String(stars)), default: 0] += 1
            return
        }
        guard let service = submission.service?.rawValue else { return }
        services[service, default: ServiceTotals()].add(submission)
        servicesByDay[DayKey(day: day, key: service), default: ServiceTotals()].add(submission)
    }

    package mutating func add(_ explained: SurveyExplained, at time: Date) {
        reasons.append(
            SurveyReason(
                part: explained.part.rawValue, service: explained.service?.rawValue, points: explained.points, stars: explained.stars,
                why: explained.why,
                at: time))
    }

    /// One counted event, its payload decoded.
    package enum Counted {
        case telemetry(TelemetryRecorded, day: String)
        case poll(PollAnswered, day: String)
        case survey(SurveySubmitted, day: String)
        case reason(SurveyExplained, at: Date)
    }

    /// The events this service counts, decoded once, with their ids; other types are left out. A payload that
    /// does not decode throws (the consumer then applies the batch one event at a time and dead-letters it).
    package static func decode(_ events: [ReceivedEvent]) throws -> [(id: UUID, event: Counted)] {
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
                decoded.append((event.header.id, .reason(try event.payload(as: SurveyExplained.self), at: event.header.occurredAt)))
            default:
                continue
            }
        }
        return decoded
    }

    package init(folding events: some Sequence<Counted>) {
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
