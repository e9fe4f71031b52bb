/// What setting the daily horoscope notification needs from storage: `DailyHoroscopeStore` in Postgres, a memory
/// one in the unit tests.
package protocol DailyHoroscopeSettings: Sendable {
    /// The user's setting; off with nothing chosen for a user who never set it.
    func setting(of user: String) async throws -> DailyHoroscopeSetting
    /// Whether the scheduler can read a clock in `zone` (Postgres knows it by that name).
    func knows(zone: String) async throws -> Bool
    /// Stores the whole setting and returns it as stored.
    func set(_ change: DailyHoroscopeSetting, of user: String) async throws -> DailyHoroscopeSetting
}
