import Foundation
import ServiceTestSupport
import TestSupport
import Testing

/// U9: the horoscope app from nothing but its name and an install id, through auth (payments by the
/// provider's signed webhook), appointment-booker and warning-detector (its pushes, on a fake APNs that binds each
/// token to one app), wired by the real broker as in production.
@Suite("App journey: horoscope")
struct HoroscopeAppJourneyTests {
    @Test(
        "U8 (B1-B5, U5, U6, U8, U9, A7): an install reads, pays, books a fortune teller and gets its reminder and daily horoscope on its phone")
    func horoscopeAppJourney() async throws {
        let apns = StrictAPNs()
        try await LifecycleAuth.run(extraEnvironment: ["PAYMENT_WEBHOOK_SECRET": AuthTestHarness.webhookSecret]) { auth, users in
            try await WarningTestHarness.run(extraEnvironment: ["WARNING_USERS_TOPIC": users], push: apns.handler, tokens: auth.tokens) { warnings in
                let wiring = [
                    "APPOINTMENT_USERS_TOPIC": users, "APPOINTMENT_BOOKINGS_TOPIC": warnings.appointmentsTopic,
                    // A reminder as soon as the appointment is booked, a daily horoscope as soon as it is due.
                    "APPOINTMENT_REMINDER_LEAD_MINUTES": "10080", "APPOINTMENT_REMINDER_TICK_MS": "200", "DAILY_HOROSCOPE_TICK_MS": "200",
                ]
                try await BookingTestHarness.run(extraEnvironment: wiring, tokens: auth.tokens) { booking in
                    let install = try await auth.install("horoscope")

                    var (status, body) = try await booking.request(.get, "/v1/horoscope/leo", bearer: install.access)
                    #expect(status == .ok, "free horoscope: \(body.raw ?? "")")
                    let (changed, me) = try await auth.request(
                        .patch, "/v1/me", body: Data(#"{"zodiacSign": "leo", "language": "th"}"#.utf8), bearer: install.access)
                    #expect(changed == .ok && me["zodiacSign"] == "leo", "\(me)")

                    let phone = String(repeating: "e5", count: 32)
                    apns.issue(phone, to: "com.example.horoscope")
                    (status, body) = try await warnings.request(
                        .put, "/v1/me/devices/\(phone)", json: ["app": "horoscope", "timeZone": "Asia/Bangkok", "language": "th"],
                        bearer: install.access)
                    #expect(status == .ok, "device: \(body.raw ?? "")")
                    // The same person's weather app on another phone: nothing of the horoscope app may reach it.
                    let weatherPhone = String(repeating: "f6", count: 32)
                    apns.issue(weatherPhone, to: "com.example.weather")
                    (status, body) = try await warnings.request(
                        .put, "/v1/me/devices/\(weatherPhone)", json: ["app": "weather", "timeZone": "Asia/Bangkok"], bearer: install.access)
                    #expect(status == .ok, "weather device: \(body.raw ?? "")")
                    (status, body) = try await booking.request(
                        .put, "/v1/me/daily-horoscope", json: ["enabled": true, "sign": "leo", "localTime": "00:00", "timeZone": "Asia/Bangkok"],
                        bearer: install.access)
                    #expect(status == .ok, "daily horoscope: \(body.raw ?? "")")
                    #expect(
                        try await eventually { apns.sent(to: phone).contains { $0.contains("daily-horoscope") } }, "today's horoscope on the phone")

                    try await auth.pay("fortune_stick", for: install.id)
                    try await auth.pay("contact_fortune_teller", for: install.id)
                    // The app's next token carries what it paid for.
                    let app = try await auth.refreshed(install)
                    (status, body) = try await booking.request(.post, "/v1/readings/fortune-stick", json: [:], bearer: app.access)
                    #expect(status == .created, "paid reading: \(body.raw ?? "")")
                    (status, body) = try await booking.request(.get, "/v1/me/readings", bearer: app.access)
                    #expect(status == .ok && body["readings"].count == 2, "history: \(body.raw ?? "")")

                    let admin = try await auth.adminToken()
                    let (teller, _) = try await booking.listedPartner(through: auth, admin: admin)
                    let partner = try #require(UUID(uuidString: teller.id))
                    let slot = try await booking.futureSlot(partner, fromDay: 2)
                    #expect(try await eventually { try await booking.book(partner, slot, bearer: app.access).0 == .created }, "booked")
                    (status, body) = try await booking.request(.get, "/v1/me/bookings", bearer: app.access)
                    #expect(status == .ok && "\(body.raw ?? "")".contains(teller.id), "my bookings: \(body.raw ?? "")")
                    #expect(
                        try await eventually { apns.sent(to: phone).contains { $0.contains("appointment-reminder") } }, "the reminder on the phone")
                    #expect(apns.sent(to: phone).allSatisfy { $0.contains("ดวงวันนี้") || $0.contains("ใกล้ถึงเวลานัดหมาย") }, "in Thai")
                    #expect(apns.sent(to: weatherPhone).isEmpty, "never the weather app's phone")
                    let booked = try #require(body["bookings"][0]["id"].string)
                    (status, body) = try await booking.request(.post, "/v1/bookings/\(booked)/cancel", json: [:], bearer: app.access)
                    #expect(status == .ok, "cancel: \(body.raw ?? "")")
                    (status, body) = try await booking.request(.put, "/v1/me/daily-horoscope", json: ["enabled": false], bearer: app.access)
                    #expect(status == .ok && body["enabled"].bool == false, "notification off")

                    let (paid, payments) = try await auth.request(.get, "/v1/me/payments", bearer: app.access)
                    #expect(paid == .ok && payments["payments.1.entitlement"] != nil, "\(payments)")
                }
            }
        }
    }
}
