import Foundation
import PlatformCore
import PlatformEvents
import Testing

/// The one rule for a value outside a closed set on the topics (X1, X2): the payload does not decode, which is a
/// permanent error, so the consumer dead-letters the event instead of guessing. Every closed set travels as its
/// enum's raw value, spelt as before the enums, so events already on the topics still decode.
@Suite("Closed sets on the topics")
struct ClosedSetDecodingTests {
    static let user = "0b6f1c1e-8a52-4d0e-9a43-3c8f2f0b2d11"

    /// A `ReceivedEvent` whose payload is `payload`'s JSON.
    static func received(_ type: EventType, _ payload: String) throws -> ReceivedEvent {
        let envelope = """
            {"id":"\(UUID().uuidString)","key":"k","occurredAt":"2026-11-29T10:00:00Z","payload":\(payload),\
            "producer":"test","schemaVersion":1,"type":"\(type.rawValue)"}
            """
        return try ReceivedEvent(bytes: Array(envelope.utf8))
    }

    static let knownAndUnknown: [(type: EventType, decodes: @Sendable (ReceivedEvent) throws -> Void, known: String, unknown: String)] = [
        (
            EventTypes.userRegistered, { _ = try $0.payload(as: UserRegistered.self) },
            #"{"userId":"\#(user)","kind":"install","role":"user","app":"weather"}"#,
            #"{"userId":"\#(user)","kind":"robot","role":"user"}"#
        ),
        (
            EventTypes.userRoleChanged, { _ = try $0.payload(as: UserRoleChanged.self) },
            #"{"userId":"\#(user)","role":"guest"}"#, #"{"userId":"\#(user)","role":"wizard"}"#
        ),
        (
            EventTypes.entitlementGranted, { _ = try $0.payload(as: EntitlementGranted.self) },
            #"{"userId":"\#(user)","entitlement":"fortune_stick","source":"merge"}"#,
            #"{"userId":"\#(user)","entitlement":"fortune_stick","source":"lottery"}"#
        ),
        (
            EventTypes.userDeleted, { _ = try $0.payload(as: UserDeleted.self) },
            #"{"userId":"\#(user)","by":"self"}"#, #"{"userId":"\#(user)","by":"someone"}"#
        ),
        (
            EventTypes.appointmentCancelled, { _ = try $0.payload(as: AppointmentChanged.self) },
            #"{"bookingId":"\#(user)","partnerId":"\#(user)","userId":"u","startsAt":"2026-11-29T10:00:00Z","endsAt":"2026-11-29T11:00:00Z","status":"cancelled","changedBy":"system"}"#,
            #"{"bookingId":"\#(user)","partnerId":"\#(user)","userId":"u","startsAt":"2026-11-29T10:00:00Z","endsAt":"2026-11-29T11:00:00Z","status":"postponed","changedBy":"system"}"#
        ),
        (
            EventTypes.warningIssued, { _ = try $0.payload(as: WarningNotice.self) },
            #"{"warningId":"\#(user)","cityId":1,"announcementNumber":"n","location":"l","region":"r","kind":"heavy-rain","severity":"Extreme","status":"s","statusDescription":"d","onset":"2026-11-29T10:00:00Z","ends":"2026-11-29T11:00:00Z"}"#,
            #"{"warningId":"\#(user)","cityId":1,"announcementNumber":"n","location":"l","region":"r","kind":"heavy-rain","severity":"extreme","status":"s","statusDescription":"d","onset":"2026-11-29T10:00:00Z","ends":"2026-11-29T11:00:00Z"}"#
        ),
        (
            EventTypes.telemetryRecorded, { _ = try $0.payload(as: TelemetryRecorded.self) },
            #"{"app":"survey","clientEventId":"\#(user)","kind":"screen_viewed","deviceId":"d","platform":"web"}"#,
            #"{"app":"survey","clientEventId":"\#(user)","kind":"screen_viewed","deviceId":"d","platform":"windows"}"#
        ),
        (
            EventTypes.telemetryRecorded, { _ = try $0.payload(as: TelemetryRecorded.self) },
            #"{"app":"weather","clientEventId":"\#(user)","kind":"install","deviceId":"d","platform":"ios"}"#,
            #"{"app":"weather","clientEventId":"\#(user)","kind":"crashed","deviceId":"d","platform":"ios"}"#
        ),
        (
            EventTypes.forecastUpdated, { _ = try $0.payload(as: ForecastHour.self) },
            #"{"time":"2026-11-29T10:00:00Z","temperatureC":1,"condition":"thunderstorm","description":"d","windSpeedKmh":1,"precipitationMm":0,"snowfallCm":0}"#,
            #"{"time":"2026-11-29T10:00:00Z","temperatureC":1,"condition":"tornado","description":"d","windSpeedKmh":1,"precipitationMm":0,"snowfallCm":0}"#
        ),
        (
            EventTypes.placeUpserted, { _ = try $0.payload(as: PlaceUpserted.self) },
            #"{"placeId":"\#(user)","name":"n","category":"worship","latitude":1,"longitude":2,"sources":[]}"#,
            #"{"placeId":"\#(user)","name":"n","category":"casino","latitude":1,"longitude":2,"sources":[]}"#
        ),
    ]

    @Test("X1: each closed set's wire spelling decodes; a value outside it is a permanent error, so it is dead-lettered")
    func unknownValuesArePermanent() throws {
        for sample in Self.knownAndUnknown {
            try sample.decodes(try Self.received(sample.type, sample.known))
            let unknown = try Self.received(sample.type, sample.unknown)
            #expect(throws: EventDecodingError.self, "\(sample.type.rawValue)") { try sample.decodes(unknown) }
        }
    }

    @Test("X1: the enums keep the spellings the topics always carried")
    func wireSpellings() {
        #expect(DeletionCause.owner.rawValue == "self")
        #expect(Entitlement.allCases.map(\.rawValue) == ["tarot", "fortune_stick", "compatibility", "phone_number", "contact_fortune_teller"])
        #expect(WarningKind.allCases.map(\.rawValue) == ["heat", "frost", "wind", "storm", "heavy-rain", "snow", "low-visibility"])
        #expect(WarningSeverity.allCases.map(\.rawValue) == ["Minor", "Moderate", "Severe", "Extreme"])
        #expect(TelemetryKind.allCases.map(\.rawValue) == ["install", "feature_used", "screen_viewed", "city_viewed"])
        #expect(AccountKind.allCases.map(\.rawValue) == ["dashboard", "survey", "horoscope", "install"])
        #expect(UserRole.allCases.map(\.rawValue) == ["guest", "user", "partner", "admin"])
        #expect(InstallApp.allCases.map(\.rawValue) == ["weather", "places", "horoscope"])
        #expect(EntitlementSource.allCases.map(\.rawValue) == ["admin", "payment", "merge"])
        #expect(BookingStatus.allCases.map(\.rawValue) == ["booked", "cancelled"])
        #expect(BookingActor.allCases.map(\.rawValue) == ["user", "partner", "admin", "system"])
        #expect(PlaceCategory.allCases.map(\.rawValue) == ["coworking", "cafe", "library", "bar", "other", "worship"])
        #expect(TelemetryApp.allCases.map(\.rawValue) == ["weather", "places", "horoscope", "survey"])
        #expect(TelemetryPlatform.allCases.map(\.rawValue) == ["ios", "android", "web"])
        #expect(SurveyPart.allCases.map(\.rawValue) == ["service", "overall"])
        #expect(HotelService.allCases.map(\.rawValue) == ["rooms", "dining", "spa-pool", "gym"])
        #expect(
            WeatherCondition.allCases.map(\.rawValue) == [
                "clear", "partly-cloudy", "cloudy", "fog", "drizzle", "rain", "heavy-rain", "freezing-rain", "sleet", "snow", "showers",
                "thunderstorm",
            ])
    }
}
