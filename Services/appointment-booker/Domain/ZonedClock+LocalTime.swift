import PlatformCore

/// A partner's hours are `LocalTime`s; the zone arithmetic is the platform's `ZonedClock`.
extension ZonedClock {
    func instants(of day: CivilDate, _ time: LocalTime) -> [Int] { instants(of: day, minute: time.minutes) }

    func firstInstant(of day: CivilDate, _ time: LocalTime) -> Int { firstInstant(of: day, minute: time.minutes) }

    func lastInstant(of day: CivilDate, _ time: LocalTime) -> Int { lastInstant(of: day, minute: time.minutes) }
}
