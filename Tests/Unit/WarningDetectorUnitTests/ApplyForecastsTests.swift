import Foundation
import Logging
import PlatformCore
import PlatformEvents
import Testing
import UnitTestSupport

@testable import WarningDetector

/// A city's warnings following its forecasts (A1, A2, A5) through `ApplyForecasts` over a memory store. The
/// integration tests keep what needs the running consumer: the events on the topic, the dead-letter topic, a
/// replayed event applied once, the expired warning left out by SQL.
@Suite("warning-detector: applying forecasts")
struct ApplyForecastsTests {
    let store = MemoryForecastStore()
    let logger = Logger(label: "apply-forecasts-test")
    /// A fixed whole hour, so the forecasts' hours and the warnings' times are predictable.
    let start = Date(timeIntervalSince1970: 1_782_000_000 - 1_782_000_000.truncatingRemainder(dividingBy: 3_600))

    func apply(_ forecasts: ForecastUpdated..., now: Date? = nil) async throws -> WarningChanges {
        let detector = WarningDetector(
            rules: try WarningConfiguration(environment: EnvironmentReader([:])).rules, horizon: .seconds(48 * 3_600))
        return try await ApplyForecasts(detector: detector).run(
            forecasts, traceParents: [:], store: store, now: now ?? forecasts[0].fetchedAt, logger: logger)
    }

    @Test("A1: a crossing issues a warning numbered by year, described from the city, and pushed")
    func issue() async throws {
        let changes = try await apply(WarningFixtures.heat(33, hours: 3...5, fetchedAt: start))
        let warning = try #require(changes.issued.first)
        #expect(changes.issued.count == 1 && changes.updated.isEmpty && changes.cancelled.isEmpty)
        #expect(warning.kind == .heat && warning.location == "Berlin" && warning.region == "Land Berlin, Germany")
        #expect(warning.announcementNumber == "2026-000001")
        #expect(warning.onset == start.addingTimeInterval(3 * 3_600) && warning.ends == start.addingTimeInterval(6 * 3_600))
        #expect(store.pushed == [warning])
    }

    @Test("A2: a later forecast that changes the warning updates it under the same id and number; no second push")
    func update() async throws {
        let first = try #require(try await apply(WarningFixtures.heat(33, hours: 3...5, fetchedAt: start)).issued.first)
        let later = try await apply(WarningFixtures.heat(38, hours: 3...7, fetchedAt: start.addingTimeInterval(600)))
        let updated = try #require(later.updated.first)
        #expect(later.issued.isEmpty && updated.id == first.id && updated.announcementNumber == first.announcementNumber)
        #expect(updated.severity != first.severity || updated.ends != first.ends)
        #expect(store.pushed.count == 1)
    }

    @Test("A2: the same warning forecast again changes nothing; under way, it keeps its first onset")
    func noCreep() async throws {
        let first = try #require(try await apply(WarningFixtures.heat(33, hours: 0...5, fetchedAt: start)).issued.first)
        let same = try await apply(WarningFixtures.heat(33, hours: 0...5, fetchedAt: start.addingTimeInterval(60)))
        #expect(same.issued.isEmpty && same.updated.isEmpty && same.cancelled.isEmpty)
        // An hour on, the forecast starts at the next hour: the detected onset moved, the warning's did not.
        let nextHour = try await apply(WarningFixtures.heat(33, hours: 0...4, fetchedAt: start.addingTimeInterval(3_600)))
        #expect(nextHour.updated.isEmpty && nextHour.issued.isEmpty)
        #expect(store.live.first?.onset == first.onset)
    }

    @Test("A2: a warning not yet under way follows its forecast's onset")
    func onsetMovesBeforeStart() async throws {
        _ = try await apply(WarningFixtures.heat(33, hours: 5...7, fetchedAt: start))
        let moved = try await apply(WarningFixtures.heat(33, hours: 6...8, fetchedAt: start.addingTimeInterval(600)))
        #expect(moved.updated.first?.onset == start.addingTimeInterval(6 * 3_600))
    }

    @Test("A1: a warning the forecast no longer shows is cancelled; other kinds of the city stay")
    func cancel() async throws {
        let both = WarningFixtures.forecast(fetchedAt: start) { index, hour in
            if index == 3 { hour.temperatureC = 33 }
            if index == 10 { hour.windGustKmh = 80 }
        }
        #expect(try await apply(both).issued.map(\.kind.rawValue).sorted() == ["heat", "wind"])
        let windOnly = WarningFixtures.forecast(fetchedAt: start.addingTimeInterval(600)) { index, hour in
            if index == 10 { hour.windGustKmh = 80 }
        }
        let changes = try await apply(windOnly)
        #expect(changes.cancelled.map(\.kind) == [.heat] && changes.issued.isEmpty)
        #expect(store.live.map(\.kind) == [.wind])
        #expect(store.published.count == 3, "two issued, one cancelled")
    }

    @Test("A2: an older forecast arriving after a newer one changes nothing")
    func lateOlderForecast() async throws {
        _ = try await apply(WarningFixtures.heat(33, hours: 3...5, fetchedAt: start.addingTimeInterval(600)))
        let late = try await apply(WarningFixtures.forecast(fetchedAt: start))
        #expect(late.cancelled.isEmpty && store.live.count == 1)
    }

    @Test("A5: a warning that had ended before it was detected is stored but pushed to nobody")
    func endedNotPushed() async throws {
        let changes = try await apply(
            WarningFixtures.heat(33, hours: 1...2, fetchedAt: start), now: start.addingTimeInterval(4 * 3_600))
        #expect(changes.issued.count == 1 && store.pushed.isEmpty)
    }

    @Test("A1: numbers follow each other across the cities of one batch")
    func numbersAcrossCities() async throws {
        let changes = try await apply(
            WarningFixtures.heat(33, hours: 3...5, fetchedAt: start),
            WarningFixtures.heat(33, hours: 3...5, city: WarningFixtures.suva, fetchedAt: start))
        #expect(changes.issued.map(\.announcementNumber) == ["2026-000001", "2026-000002"])
        #expect(Set(changes.issued.map(\.cityId)) == [WarningFixtures.berlin.id, WarningFixtures.suva.id])
    }

    @Test("A2: of a batch's forecasts of one city only the newest is applied; a position without a forecast is named")
    func newestPerCity() throws {
        let older = WarningFixtures.forecast(fetchedAt: start)
        let newer = WarningFixtures.forecast(fetchedAt: start.addingTimeInterval(60))
        let suva = WarningFixtures.forecast(WarningFixtures.suva, fetchedAt: start)
        #expect(try ApplyForecasts.newestPerCity([older, suva, newer]) == [2, 1])
        #expect(try ApplyForecasts.newestPerCity([newer, suva, older]) == [0, 1])
        #expect(try ApplyForecasts.newestPerCity([older, older]) == [1], "of two alike, the later in the batch")
        #expect(throws: ApplyForecasts.NotAForecast(position: 1)) { try ApplyForecasts.newestPerCity([older, nil, suva]) }
    }
}
