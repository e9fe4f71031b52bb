import Foundation
import HTTPTypes
import ServiceTestSupport
import TestSupport
import Testing

/// U9 through auth, the broker and appointment-booker, every token from auth: an admin deletes a fortune
/// teller (their future appointments are cancelled with events, their profile stays empty under a new id), and a
/// client deletes themselves (readings go, past appointments stay named by nobody).
@Suite("Account lifecycle: appointment-booker")
struct AppointmentAccountLifecycleTests {
    @Test("U9 (B2, U5, U6): deleting a partner cancels their future appointments with events; deleting a client erases their readings")
    func deletePartnerAndClient() async throws {
        try await LifecycleAuth.run { auth, users in
            try await BookingTestHarness.run(extraEnvironment: ["APPOINTMENT_USERS_TOPIC": users], tokens: auth.tokens) { booking in
                let admin = try await auth.adminToken()
                let (teller, partnerAccess) = try await booking.listedPartner(through: auth, admin: admin)
                let partner = try #require(UUID(uuidString: teller.id))
                var (status, body): (HTTPResponse.Status, JSONObject)
                var (answer, json): (HTTPResponse.Status, JSONValue)

                let client = try await auth.install("horoscope")
                for entitlement in ["contact_fortune_teller", "fortune_stick"] {
                    (status, body) = try await auth.request(
                        .post, "/v1/admin/users/\(client.id)/entitlements", body: Data(#"{"entitlement": "\#(entitlement)"}"#.utf8),
                        bearer: admin)
                    #expect(status.code < 300, "\(body)")
                }
                let clientAccess = try AppSession(try await auth.post("/v1/sessions/refresh", ["refreshToken": client.refresh]).1).access
                let slot = try await booking.futureSlot(partner, fromDay: 2)
                #expect(try await eventually { try await booking.book(partner, slot, bearer: clientAccess).0 == .created })
                (answer, json) = try await booking.request(.post, "/v1/readings/fortune-stick", json: [:], bearer: clientAccess)
                #expect(answer.code < 300, "\(json.raw ?? "")")

                (status, _) = try await auth.request(.delete, "/v1/admin/users/\(teller.id)", bearer: admin)
                #expect(status == .noContent)
                #expect(
                    try await eventually {
                        try await booking.count("SELECT count(*)::int FROM bookings WHERE status = 'cancelled'") == 1
                    }, "the deleted partner's future appointment is cancelled")
                #expect(try await booking.count("SELECT count(*)::int FROM outbox WHERE event_type = 'appointment.cancelled'") == 1)
                #expect(try await booking.count("SELECT count(*)::int FROM partners WHERE name = 'Deleted partner' AND contact = ''") == 1)
                #expect(try await booking.db.columnsMentioning(teller.id).isEmpty)
                #expect(try await booking.request(.get, "/v1/partner/bookings", bearer: partnerAccess).0 == .unauthorized)

                #expect(try await auth.deleteOwnAccount(bearer: clientAccess).0 == .noContent)
                #expect(try await eventually { try await booking.count("SELECT count(*)::int FROM readings") == 0 })
                #expect(try await booking.count("SELECT count(*)::int FROM bookings WHERE user_id LIKE 'erased:%'") == 1)
                #expect(try await booking.db.columnsMentioning(client.id).isEmpty)
                #expect(try await booking.request(.get, "/v1/me/bookings", bearer: clientAccess).0 == .unauthorized)
            }
        }
    }

    @Test("U9 (B2, B4, B5): an install's readings, appointment and daily horoscope setting follow it into the account it merges into")
    func mergeInstall() async throws {
        try await LifecycleAuth.run(extraEnvironment: ["PAYMENT_WEBHOOK_SECRET": AuthTestHarness.webhookSecret]) { auth, users in
            try await BookingTestHarness.run(extraEnvironment: ["APPOINTMENT_USERS_TOPIC": users], tokens: auth.tokens) { booking in
                let admin = try await auth.adminToken()
                let (teller, _) = try await booking.listedPartner(through: auth, admin: admin)
                let partner = try #require(UUID(uuidString: teller.id))
                let first = try await auth.install("horoscope")
                try await auth.pay("contact_fortune_teller", for: first.id)
                let install = try await auth.refreshed(first)
                #expect(try await booking.request(.get, "/v1/horoscope/leo", bearer: install.access).0 == .ok)
                #expect(
                    try await booking.request(
                        .put, "/v1/me/daily-horoscope", json: ["enabled": true, "sign": "leo", "localTime": "07:00", "timeZone": "Asia/Bangkok"],
                        bearer: install.access
                    ).0 == .ok)
                let slot = try await booking.futureSlot(partner, fromDay: 2)
                #expect(try await eventually { try await booking.book(partner, slot, bearer: install.access).0 == .created })

                let lasting = try await auth.install("horoscope")
                let (status, body) = try await auth.merge(install: install, into: lasting.access)
                #expect(status == .ok, "\(body)")
                #expect(
                    try await eventually {
                        try await booking.request(.get, "/v1/me/bookings", bearer: lasting.access).1["bookings"].count == 1
                    }, "the appointment is the lasting account's")
                let (_, readings) = try await booking.request(.get, "/v1/me/readings", bearer: lasting.access)
                #expect(readings["readings"].count == 1)
                let (_, daily) = try await booking.request(.get, "/v1/me/daily-horoscope", bearer: lasting.access)
                #expect(daily["enabled"].bool == true && daily["sign"].string == "leo")
                #expect(try await booking.db.columnsMentioning(install.id).isEmpty)
                #expect(try await booking.request(.get, "/v1/me/bookings", bearer: install.access).0 == .unauthorized)
            }
        }
    }
}
