import Foundation
import HTTPTypes
import Shared
import Testing
import TestSupport

@testable import AppointmentBooker

@Suite("appointment-booker: daylight-saving days through the API")
struct AppointmentTimeZoneTests {
    @Test(
        "B3: slots and bookings on DST days in Europe/Paris and America/New_York, and in Asia/Bangkok without DST",
        arguments: [
            ("Europe/Paris", "2027-03-28", ["2027-03-28T01:00:00+01:00", "2027-03-28T03:00:00+02:00"]),
            ("Europe/Paris", "2027-10-31",
             ["2027-10-31T01:00:00+02:00", "2027-10-31T02:00:00+02:00", "2027-10-31T02:00:00+01:00", "2027-10-31T03:00:00+01:00"]),
            ("America/New_York", "2027-03-14", ["2027-03-14T01:00:00-05:00", "2027-03-14T03:00:00-04:00"]),
            ("America/New_York", "2027-11-07",
             ["2027-11-07T01:00:00-04:00", "2027-11-07T01:00:00-05:00", "2027-11-07T02:00:00-05:00", "2027-11-07T03:00:00-05:00"]),
            ("Asia/Bangkok", "2027-03-28", ["2027-03-28T01:00:00+07:00", "2027-03-28T02:00:00+07:00", "2027-03-28T03:00:00+07:00"]),
        ])
    func test_B3_daylightSavingDays(zone: String, day: String, expected: [String]) async throws {
        try await BookingTestHarness.run { harness in
            let partner = try await harness.listedPartner(timeZone: zone, weekly: BookingTestHarness.everyDay("01:00", "04:00"))
            #expect(try await harness.slots(partner, from: day) == expected)
            // Shown in UTC, the same instants.
            let utc = try await harness.slots(partner, from: day, tz: "UTC")
            #expect(utc.count == expected.count && utc.allSatisfy { $0.hasSuffix("+00:00") })
            // Each slot, the repeated hour's two included, is bookable once; the slot after the last is not.
            for slot in expected {
                let (status, body) = try await harness.book(partner, slot, bearer: try await harness.bookerToken())
                #expect(status == .created && body["startsAt"].string == slot, "\(slot): \(body.raw ?? "")")
            }
            #expect(try await harness.slots(partner, from: day).isEmpty)
            let (late, _) = try await harness.book(partner, "\(day)T04:00:00Z", bearer: try await harness.bookerToken())
            #expect(late == .unprocessableContent)
            let (unknown, body) = try await harness.request(.get, "/v1/partners/\(partner)/slots?from=\(day)&tz=Mars/Olympus")
            #expect(unknown == .unprocessableContent && body["error"]["code"].string == "unknown_time_zone")
        }
    }
}
