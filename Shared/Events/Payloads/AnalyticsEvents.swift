import Foundation

/// Payloads of the `analytics.telemetry` topic (key: the account's pseudonym, else the device), written by
/// analytics-aggregator: the apps' telemetry as ingested (N1), poll answers (N3) and survey submissions (N4).

/// `telemetry.recorded`: one event an app sent. The envelope's `occurredAt` is the app's time of the event,
/// so aggregates count it on the day it happened however late it arrives.
public struct TelemetryRecorded: Codable, Sendable, Equatable {
    /// The app whose key sent it.
    public var app: TelemetryApp
    /// The app's own id for the event (the envelope id is derived from it and the app).
    @LowercaseUUID public var clientEventId: UUID
    public var kind: TelemetryKind
    /// The app's random id of the install; empty when the event names an account (the account is who counts, and
    /// the device's id would link a deleted account's kept events to the phone).
    public var deviceId: String
    /// The account: `p:` and its pseudonym (analytics-aggregator's, deleted with the account, U9); an event written
    /// before pseudonyms has the id the app sent.
    public var userId: String?
    public var platform: TelemetryPlatform?
    public var appVersion: String?
    public var feature: String?
    public var screen: String?
    public var cityId: Int?
    public var cityName: String?

    public init(
        app: TelemetryApp, clientEventId: UUID, kind: TelemetryKind, deviceId: String, userId: String? = nil,
        platform: TelemetryPlatform? = nil,
        appVersion: String? = nil, feature: String? = nil, screen: String? = nil, cityId: Int? = nil, cityName: String? = nil
    ) {
        self.app = app
        self.clientEventId = clientEventId
        self.kind = kind
        self.deviceId = deviceId
        self.userId = userId
        self.platform = platform
        self.appVersion = appVersion
        self.feature = feature
        self.screen = screen
        self.cityId = cityId
        self.cityName = cityName
    }

    /// Who counts as the user: the signed-in account when the app said one (its pseudonym, or `u:` and the id in an
    /// event from before pseudonyms), else the device.
    public var userKey: String {
        guard let userId else { return "d:\(deviceId)" }
        return userId.hasPrefix("p:") ? userId : "u:\(userId)"
    }
}

/// `poll.answered`: one user's answer to one poll question.
public struct PollAnswered: Codable, Sendable, Equatable {
    /// The account's pseudonym with its `p:` (as `TelemetryRecorded.userId`); the id in events from before.
    public var userId: String
    public var questionId: String
    public var answer: Bool

    public init(userId: String, questionId: String, answer: Bool) {
        self.userId = userId
        self.questionId = questionId
        self.answer = answer
    }
}

/// `survey.submitted`: a rated hotel service (`part` = `service`) or the overall rating (`part` = `overall`).
public struct SurveySubmitted: Codable, Sendable, Equatable {
    /// The account's pseudonym with its `p:` (as `TelemetryRecorded.userId`); the id in events from before.
    public var userId: String
    public var part: SurveyPart
    /// The rated service (services only).
    public var service: HotelService?
    public var points: Int
    /// The overall rating's stars (overall only).
    public var stars: Int?
    /// Under 75 points (a service) or three stars or fewer (overall): the guest was asked why.
    public var belowGood: Bool

    public init(userId: String, part: SurveyPart, service: HotelService? = nil, points: Int, stars: Int? = nil, belowGood: Bool) {
        self.userId = userId
        self.part = part
        self.service = service
        self.points = points
        self.stars = stars
        self.belowGood = belowGood
    }
}

/// `survey.explained`: why a guest rated a hotel service under 75 points (`part` = `service`) or the stay three
/// stars or fewer (`part` = `overall`), with the points or stars it explains. Not whose: the admins read the words,
/// and the topic keeps events for good (a rebuild reads them); the event's key is the guest's, for its partition.
public struct SurveyExplained: Codable, Sendable, Equatable {
    public var part: SurveyPart
    /// The explained service (services only).
    public var service: HotelService?
    public var points: Int
    /// The overall rating's stars (overall only).
    public var stars: Int?
    public var why: String

    public init(part: SurveyPart, service: HotelService? = nil, points: Int, stars: Int? = nil, why: String) {
        self.part = part
        self.service = service
        self.points = points
        self.stars = stars
        self.why = why
    }
}
