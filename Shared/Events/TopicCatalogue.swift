import PlatformCore

/// An event type name, e.g. `forecast.updated`. Struct-wrapped rather than an enum so that a consumer can
/// still read (and dead-letter) events of a type it does not know, such as ones from a newer producer.
public struct EventType: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A topic of the platform: who writes it, what its key is, which event types travel on it.
public struct Topic: Sendable, Hashable {
    public let name: String
    public let partitions: Int
    /// What the partition key is; events of one key keep their order.
    public let keyedBy: String
    public let producer: String
    public let eventTypes: [EventType]
    /// The services that read it, each through its own consumer group: with `producer`, what the broker's
    /// ACLs grant (`platformctl kafka-acls`), and what a service may subscribe to.
    public var consumers: [String] = []
    /// Days the broker keeps an event (`retention.ms` at creation); nil: the broker's default. A topic that names
    /// accounts and from which nothing is rebuilt says it, so that a deleted account's id leaves it then (U9).
    public var retentionDays: Int? = nil

    /// The dead-letter topic for events of this topic that cannot be handled.
    public var deadLetterName: String { Topic.deadLetterName(of: name) }

    public static func deadLetterName(of topic: String) -> String { "\(topic).dlq" }
}

/// A topic a consumer reads, under the name this deployment gives it, with the one service allowed to produce
/// to it: an event that names another producer is dead-lettered unread (a service with write access to a topic
/// it does not own cannot make others act on its events).
public struct ConsumedTopic: Sendable, Hashable {
    public let name: String
    /// The owner; nil: not checked (a tool's topic that several writers share by design).
    public let producer: String?
    /// The services the catalogue lets read it; nil for a topic outside the catalogue.
    public let readers: [String]?
    /// The partitions the catalogue gives it; nil for a topic outside the catalogue or renamed by configuration
    /// (a test's own topic), whose count is its creator's business.
    public let partitions: Int?

    /// `name`: the configured name when the deployment renames the catalogue's topic.
    public init(_ topic: Topic, name: String? = nil) {
        self.name = name ?? topic.name
        self.producer = topic.producer
        self.readers = topic.consumers
        self.partitions = self.name == topic.name ? topic.partitions : nil
    }

    /// A topic outside the catalogue (a tool's own, a test's).
    public init(name: String, producer: String?) {
        self.name = name
        self.producer = producer
        self.readers = nil
        self.partitions = nil
    }
}

/// Every flow of the platform in one place. A service publishes only to the topics it is the producer of,
/// and reads the others through its consumer group.
public enum TopicCatalogue {
    /// How long `auth.users` and `weather.user-cities` keep events: they name accounts by id for their readers, and
    /// nothing is rebuilt from them (the aggregates come from `analytics.telemetry`, `RebuildRetention`), so a deleted
    /// account's id leaves them after this (decision 0011). A month: a reader down for weeks still catches up.
    public static let accountTopicsRetentionDays = 30

    public static let forecasts = Topic(
        name: "weather.forecasts", partitions: 6, keyedBy: "city id", producer: "weather-fetcher",
        eventTypes: [EventTypes.forecastUpdated], consumers: ["warning-detector"])
    public static let warnings = Topic(
        name: "weather.warnings", partitions: 6, keyedBy: "city id", producer: "warning-detector",
        eventTypes: [EventTypes.warningIssued, EventTypes.warningUpdated, EventTypes.warningCancelled], consumers: ["weather-fetcher"])
    public static let userCities = Topic(
        name: "weather.user-cities", partitions: 6, keyedBy: "user id", producer: "weather-fetcher",
        eventTypes: [EventTypes.favouriteAdded, EventTypes.favouriteRemoved], consumers: ["warning-detector", "analytics-aggregator"],
        retentionDays: accountTopicsRetentionDays)
    public static let users = Topic(
        name: "auth.users", partitions: 6, keyedBy: "user id", producer: "auth",
        eventTypes: [
            EventTypes.userRegistered, EventTypes.userLoggedIn, EventTypes.userBanned, EventTypes.entitlementGranted,
            EventTypes.entitlementRevoked, EventTypes.userRoleChanged, EventTypes.userEmailVerified, EventTypes.userDeleted,
            EventTypes.userMerged,
        ],
        // Every service that holds personal data reads deletions and merges (U9).
        consumers: ["analytics-aggregator", "appointment-booker", "weather-fetcher", "warning-detector", "places-importer"],
        retentionDays: accountTopicsRetentionDays)
    public static let places = Topic(
        name: "places.places", partitions: 6, keyedBy: "place id", producer: "places-importer",
        eventTypes: [EventTypes.placeUpserted, EventTypes.placeRated, EventTypes.worshipPlacesFound], consumers: ["appointment-booker"])
    /// appointment-booker's requests for places of worship where its read model has none (B4).
    public static let placeRequests = Topic(
        name: "appointments.place-requests", partitions: 3, keyedBy: "the request's cell", producer: "appointment-booker",
        eventTypes: [EventTypes.worshipPlacesWanted], consumers: ["places-importer"])
    /// Fortune tellers' applications (B6): auth alerts its admins and, on approval, makes the account a partner.
    public static let partnerApplications = Topic(
        name: "appointments.partner-applications", partitions: 3, keyedBy: "account id", producer: "appointment-booker",
        eventTypes: [EventTypes.partnerApplied, EventTypes.partnerApproved], consumers: ["auth"])
    public static let appointments = Topic(
        name: "appointments.bookings", partitions: 6, keyedBy: "partner id (a daily horoscope: user id)", producer: "appointment-booker",
        eventTypes: [
            EventTypes.appointmentBooked, EventTypes.appointmentChanged, EventTypes.appointmentCancelled,
            EventTypes.appointmentReminderDue, EventTypes.horoscopeDailyDue,
        ], consumers: ["warning-detector"])
    public static let telemetry = Topic(
        name: "analytics.telemetry", partitions: 6, keyedBy: "the account's pseudonym, else the device id", producer: "analytics-aggregator",
        eventTypes: [EventTypes.telemetryRecorded, EventTypes.pollAnswered, EventTypes.surveySubmitted, EventTypes.surveyExplained],
        consumers: ["analytics-aggregator"])

    public static let all: [Topic] = [forecasts, warnings, userCities, users, places, placeRequests, partnerApplications, appointments, telemetry]

    /// Every topic the stack needs, dead-letter topics included.
    public static var allWithDeadLetters: [KafkaTopicSpec] {
        all.flatMap { topic in
            let retention = topic.retentionDays.map { ["retention.ms": String(Int64($0) * 86_400_000)] } ?? [:]
            return [
                KafkaTopicSpec(name: topic.name, partitions: topic.partitions, configs: retention),
                KafkaTopicSpec(name: topic.deadLetterName, partitions: 1),
            ]
        }
    }
}

/// Every event type, by topic.
public enum EventTypes {
    public static let forecastUpdated = EventType("forecast.updated")
    public static let favouriteAdded = EventType("favourite.added")
    public static let favouriteRemoved = EventType("favourite.removed")
    public static let warningIssued = EventType("warning.issued")
    public static let warningUpdated = EventType("warning.updated")
    public static let warningCancelled = EventType("warning.cancelled")
    public static let userRegistered = EventType("user.registered")
    public static let userLoggedIn = EventType("user.logged-in")
    public static let userBanned = EventType("user.banned")
    public static let entitlementGranted = EventType("entitlement.granted")
    public static let entitlementRevoked = EventType("entitlement.revoked")
    public static let userRoleChanged = EventType("user.role-changed")
    public static let userEmailVerified = EventType("user.email-verified")
    public static let userDeleted = EventType("user.deleted")
    public static let userMerged = EventType("user.merged")
    public static let placeUpserted = EventType("place.upserted")
    public static let placeRated = EventType("place.rated")
    public static let worshipPlacesWanted = EventType("worship.places-wanted")
    public static let worshipPlacesFound = EventType("worship.places-found")
    public static let partnerApplied = EventType("partner.applied")
    public static let partnerApproved = EventType("partner.approved")
    public static let appointmentBooked = EventType("appointment.booked")
    public static let appointmentChanged = EventType("appointment.changed")
    public static let appointmentCancelled = EventType("appointment.cancelled")
    public static let appointmentReminderDue = EventType("appointment.reminder-due")
    public static let horoscopeDailyDue = EventType("horoscope.daily-due")
    public static let telemetryRecorded = EventType("telemetry.recorded")
    public static let pollAnswered = EventType("poll.answered")
    public static let surveySubmitted = EventType("survey.submitted")
    public static let surveyExplained = EventType("survey.explained")
}
