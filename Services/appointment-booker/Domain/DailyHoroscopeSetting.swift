/// A user's daily horoscope notification (B5; seed: "Users can set popup to show prediction in notification
/// everyday", "Users can turn on/off notification"): on or off, the sign, and when in which zone.
package struct DailyHoroscopeSetting: Sendable, Equatable {
    package var enabled: Bool
    package var sign: String?
    /// `HH:MM`.
    package var localTime: String?
    package var timeZone: String?

    package init(enabled: Bool, sign: String? = nil, localTime: String? = nil, timeZone: String? = nil) {
        self.enabled = enabled
        self.sign = sign
        self.localTime = localTime
        self.timeZone = timeZone
    }
}

/// What a user asks to set; a field left out (nil) keeps what the setting had.
package struct DailyHoroscopeChange: Sendable, Equatable {
    package var enabled: Bool
    package var sign: String?
    package var localTime: String?
    package var timeZone: String?

    package init(enabled: Bool, sign: String? = nil, localTime: String? = nil, timeZone: String? = nil) {
        self.enabled = enabled
        self.sign = sign
        self.localTime = localTime
        self.timeZone = timeZone
    }
}

/// The settings' fields a refusal names.
package enum DailyHoroscopeField: String, Sendable, CaseIterable {
    case sign, localTime, timeZone
}

/// What is wrong with one field of a change (B5).
package enum DailyHoroscopeProblem: Sendable, Equatable {
    /// Not an IANA zone the service (and its database) knows.
    case unknownTimeZone
    /// Not a 24-hour `HH:MM` time of day.
    case malformedLocalTime
    /// Turning the notification on needs the field, and neither the change nor the setting has it.
    case neededToTurnOn
}

/// A change of the daily horoscope setting refused, with every field's problem at once.
package struct DailyHoroscopeRefusal: Error, Equatable {
    package var problems: [DailyHoroscopeField: DailyHoroscopeProblem]

    package init(problems: [DailyHoroscopeField: DailyHoroscopeProblem]) {
        self.problems = problems
    }
}

extension DailyHoroscopeSetting {
    /// The setting after `change` (B5): the fields left out keep what they were; a given time must be a time of
    /// day and a given zone one the service knows (`zoneKnown`, judged by the caller); turning it on needs a
    /// sign, a time and a zone, given now or kept; turning it off keeps them for next time.
    package func changed(by change: DailyHoroscopeChange, zoneKnown: Bool) throws(DailyHoroscopeRefusal) -> DailyHoroscopeSetting {
        var problems: [DailyHoroscopeField: DailyHoroscopeProblem] = [:]
        if change.timeZone != nil, !zoneKnown { problems[.timeZone] = .unknownTimeZone }
        if let time = change.localTime, !(LocalTime(parsing: time).map { $0 < .endOfDay } ?? false) {
            problems[.localTime] = .malformedLocalTime
        }
        let next = DailyHoroscopeSetting(
            enabled: change.enabled, sign: change.sign ?? sign, localTime: change.localTime ?? localTime,
            timeZone: change.timeZone ?? timeZone)
        if change.enabled {
            if next.sign == nil { problems[.sign] = .neededToTurnOn }
            if next.localTime == nil { problems[.localTime] = .neededToTurnOn }
            if next.timeZone == nil { problems[.timeZone] = .neededToTurnOn }
        }
        guard problems.isEmpty else { throw DailyHoroscopeRefusal(problems: problems) }
        return next
    }
}
