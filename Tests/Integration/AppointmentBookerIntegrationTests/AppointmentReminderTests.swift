import Foundation
import Logging
import PlatformCore
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing

@testable import AppointmentBooker

@Suite("appointment-booker: reminders")
struct AppointmentReminderTests {
    @Test("B2: a reminder is queued only once the appointment is within the lead time")
    func reminderLead() async throws {
        // Three days' lead: a slot within two days is due, one a week ahead is not yet.
        try await BookingTestHarness.run(extraEnvironment: ["APPOINTMENT_REMINDER_LEAD_MINUTES": "4320", "APPOINTMENT_REMINDER_TICK_MS": "50"]) {
            harness in
            let partner = try await harness.listedPartner()
            let token = try await harness.bookerToken()
            let (_, near) = try await harness.book(partner, try await harness.futureSlot(partner), bearer: token)
            let (_, far) = try await harness.book(partner, try await harness.futureSlot(partner, fromDay: 7), bearer: token)
            let reminders = "SELECT count(*)::int FROM outbox WHERE event_type = 'appointment.reminder-due'"
            #expect(try await eventually { try await harness.count(reminders) == 1 })
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await harness.count(reminders) == 1)
            let nearId = try #require(near["id"].string), farId = try #require(far["id"].string)
            #expect(try await harness.count("SELECT count(*)::int FROM bookings WHERE reminder_queued_at IS NOT NULL AND id = '\(nearId)'") == 1)
            #expect(try await harness.count("SELECT count(*)::int FROM bookings WHERE reminder_queued_at IS NULL AND id = '\(farId)'") == 1)
            #expect(try await harness.count("\(reminders) AND key = '\(partner.uuidString.lowercased())'") == 1)
        }
    }

    @Test("B2: a reminder is queued once per appointment, however many rounds or instances run; a moved booking gets a new one")
    func reminderOnce() async throws {
        // A week's lead: tomorrow's slots are due at once; rounds every 50 ms.
        try await BookingTestHarness.run(extraEnvironment: ["APPOINTMENT_REMINDER_LEAD_MINUTES": "10080", "APPOINTMENT_REMINDER_TICK_MS": "50"]) {
            harness in
            let partner = try await harness.listedPartner()
            let (_, booked) = try await harness.book(partner, try await harness.futureSlot(partner), bearer: try await harness.bookerToken())
            let id = try #require(booked["id"].string)
            let reminders = "SELECT count(*)::int FROM outbox WHERE event_type = 'appointment.reminder-due'"
            #expect(try await eventually { try await harness.count(reminders) == 1 })
            // A second instance's scheduler on the same database finds nothing left to queue.
            let second = ReminderScheduler(
                client: harness.db.client, lead: .seconds(7 * 86_400), tick: .seconds(1), topic: harness.bookingsTopic,
                startGate: StartGate(), logger: Logger(label: "second"))
            #expect(try await second.runOnce() == 0)
            try await Task.sleep(for: .milliseconds(300))
            #expect(try await harness.count(reminders) == 1)
            let (status, _) = try await harness.request(
                .patch, "/v1/bookings/\(id)", json: ["startsAt": try await harness.futureSlot(partner, index: 3)],
                bearer: try await harness.partnerToken(partner))
            #expect(status == .ok)
            #expect(try await eventually { try await harness.count(reminders) == 2 })
        }
    }
}
