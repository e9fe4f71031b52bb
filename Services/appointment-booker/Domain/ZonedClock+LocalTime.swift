import PlatformCore

/// A partner's hours are `LocalTime`s; the zone arithmetic is the platform's `ZonedClock`.
extension ZonedClock {
    package func instants(of day: CivilDate, _ time: LocalTime) -> [Int] { instants(of: day, minute: time.minutes) }

    package func firstInstant(of day: CivilDate, _ time: LocalTime) -> Int { firstInstant(of: day, minute: time.minutes) }

    package func lastInstant(of day: CivilDate, _ time: LocalTime) -> Int { lastInstant(of: day, minute: time.minutes) }
}
