import Foundation
import HTTPTypes
import ServiceTestSupport
import TestSupport
import Testing

@testable import AppointmentBooker

@Suite("appointment-booker: daylight-saving days through the API")
struct AppointmentTimeZoneTests {
    /// The next two clock changes of `zone` after now (from the system's zone data, so the test keeps
    /// working as the days pass): the local day, and whether clocks go forward (spring).
    static func nextTransitions(of zone: String) throws -> [(day: String, spring: Bool)] {
        let timeZone = try #require(TimeZone(identifier: zone))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var after = Date()
        var found: [(String, Bool)] = []
        while found.count < 2, let change = timeZone.nextDaylightSavingTimeTransition(after: after) {
            let before = change.addingTimeInterval(-1)
            let parts = calendar.dateComponents([.year, .month, .day], from: before)
            let day = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
            found.append((day, timeZone.secondsFromGMT(for: change) > timeZone.secondsFromGMT(for: before)))
            after = change.addingTimeInterval(1)
        }
        return found
    }

    /// What a 01:00-04:00 window gives on such a day, written out by hand per zone.
    static func expected(zone: String, day: String, spring: Bool) -> [String] {
        switch (zone, spring) {
        case ("Europe/Paris", true): ["\(day)T01:00:00+01:00", "\(day)T03:00:00+02:00"]
        case ("Europe/Paris", false): ["\(day)T01:00:00+02:00", "\(day)T02:00:00+02:00", "\(day)T02:00:00+01:00", "\(day)T03:00:00+01:00"]
        case ("America/New_York", true): ["\(day)T01:00:00-05:00", "\(day)T03:00:00-04:00"]
        case ("America/New_York", false): ["\(day)T01:00:00-04:00", "\(day)T01:00:00-05:00", "\(day)T02:00:00-05:00", "\(day)T03:00:00-05:00"]
        default: ["\(day)T01:00:00+07:00", "\(day)T02:00:00+07:00", "\(day)T03:00:00+07:00"]
        }
    }

    @Test(
        "B3: slots and bookings on the next DST days in Europe/Paris and America/New_York, and in Asia/Bangkok without DST",
        arguments: [("Europe/Paris", 0), ("Europe/Paris", 1), ("America/New_York", 0), ("America/New_York", 1), ("Asia/Bangkok", 0)])
    func daylightSavingDays(zone: String, transition: Int) async throws {
        // Bangkok has no clock change: it is tried on Paris's next one.
        let changes = try Self.nextTransitions(of: zone == "Asia/Bangkok" ? "Europe/Paris" : zone)
        try #require(changes.count == 2)
        let (day, spring) = changes[transition]
        let expected = Self.expected(zone: zone, day: day, spring: spring)
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner(timeZone: zone, weekly: BookingTestHarness.everyDay("01:00", "04:00"))
            #expect(try await harness.slots(partner, from: day) == expected)
            // Shown in UTC, the same instants.
            let utc = try await harness.slots(partner, from: day, tz: "UTC")
            let parse = ISO8601DateFormatter()
            #expect(utc.compactMap(parse.date(from:)) == expected.compactMap(parse.date(from:)) && utc.allSatisfy { $0.hasSuffix("+00:00") })
            // Each slot, the repeated hour's two included, is bookable once.
            for slot in expected {
                let (status, body) = try await harness.book(partner, slot, bearer: try await harness.bookerToken())
                #expect(status == .created && body["startsAt"].string == slot, "\(slot): \(body.raw ?? "")")
            }
            #expect(try await harness.slots(partner, from: day).isEmpty)
            // The hour after the last slot starts at the window's end (04:00 local): not a slot.
            let last = try #require(expected.last.flatMap(parse.date(from:)))
            let (late, body) = try await harness.book(
                partner, parse.string(from: last.addingTimeInterval(3_600)), bearer: try await harness.bookerToken())
            #expect(late == .unprocessableContent && body["error"]["code"].string == "outside_availability")
            let (unknown, error) = try await harness.request(.get, "/v1/partners/\(partner)/slots?from=\(day)&tz=Mars/Olympus")
            #expect(unknown == .unprocessableContent && error["error"]["code"].string == "unknown_time_zone")
        }
    }
}
