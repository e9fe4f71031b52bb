import Foundation
import ServiceTestSupport
import TestSupport
import Testing

@Suite("auth: hotel-survey accounts with the seed's try limits")
struct AuthSurveyTests {
    @Test("U4: sign-up, three PIN tries then forgot-PIN, five confirmation tries, and login with the new PIN")
    func surveyFlows() async throws {
        try await AuthTestHarness.run { auth in
            // Unknown email leads to sign-up.
            var (status, body) = try await auth.post("/v1/survey/login", ["email": "guest@hotel.com", "pin": "ab12"])
            #expect(status == .notFound && body["error.details.next"] == "sign_up")

            // Sign-up: PIN length, then confirmation, then success back to login with the email prefilled.
            (status, body) = try await auth.post("/v1/survey/signup", ["email": "guest@hotel.com", "pin": "ab1", "pinConfirmation": "ab1"])
            #expect(status == .unprocessableContent && body["error.code"] == "pin_format" && body["error.details.attemptsLeft"] == "2")
            (status, body) = try await auth.post("/v1/survey/signup", ["email": "guest@hotel.com", "pin": "ab12", "pinConfirmation": "ab13"])
            #expect(status == .unprocessableContent && body["error.code"] == "pins_differ" && body["error.details.attemptsLeft"] == "1")
            (status, body) = try await auth.post("/v1/survey/signup", ["email": "guest@hotel.com", "pin": "Ab12", "pinConfirmation": "Ab12"])
            #expect(status == .created && body["next"] == "login" && body["email"] == "guest@hotel.com")
            (status, body) = try await auth.post("/v1/survey/signup", ["email": "guest@hotel.com", "pin": "Ab12", "pinConfirmation": "Ab12"])
            #expect(status == .conflict && body["error.details.next"] == "login")

            // Three wrong PINs: retry, retry, then forgot-PIN; afterwards even the right PIN is refused.
            (status, body) = try await auth.post("/v1/survey/login", ["email": "guest@hotel.com", "pin": "zz99"])
            #expect(status == .unauthorized && body["error.details.attemptsLeft"] == "2" && body["error.details.next"] == "retry")
            (status, body) = try await auth.post("/v1/survey/login", ["email": "guest@hotel.com", "pin": "zz98"])
            #expect(body["error.details.attemptsLeft"] == "1")
            (status, body) = try await auth.post("/v1/survey/login", ["email": "guest@hotel.com", "pin": "zz97"])
            #expect(status == .forbidden && body["error.details.next"] == "forgot_pin")
            (status, body) = try await auth.post("/v1/survey/login", ["email": "guest@hotel.com", "pin": "Ab12"])
            #expect(status == .forbidden && body["error.code"] == "pin_tries_exhausted")

            // Forgot-PIN: a code by mail proves the email; then four mismatches, then success on the fifth try.
            (status, body) = try await auth.post("/v1/survey/forgot-pin/start", ["email": "guest@hotel.com"])
            #expect(status == .accepted && body["next"] == "forgot_pin")
            let code = try #require(try await waitForPinCode(in: auth.smtp))
            (status, body) = try await auth.post(
                "/v1/survey/forgot-pin", ["email": "guest@hotel.com", "code": "000000x", "pin": "cd34", "pinConfirmation": "cd34"])
            #expect(status == .unprocessableContent && body["error.code"] == "invalid_code" && body["error.details.attemptsLeft"] == "4")
            for attempt in 1...3 {
                (status, body) = try await auth.post(
                    "/v1/survey/forgot-pin", ["email": "guest@hotel.com", "code": code, "pin": "cd34", "pinConfirmation": "cd4\(attempt)"])
                #expect(status == .unprocessableContent && body["error.code"] == "pins_differ" && body["error.details.next"] == "retry")
            }
            (status, body) = try await auth.post(
                "/v1/survey/forgot-pin", ["email": "guest@hotel.com", "code": code, "pin": "cd34", "pinConfirmation": "cd34"])
            #expect(status == .ok && body["next"] == "login" && body["email"] == "guest@hotel.com")
            (status, body) = try await auth.post(
                "/v1/survey/forgot-pin", ["email": "guest@hotel.com", "code": code, "pin": "ef56", "pinConfirmation": "ef56"])
            #expect(status == .unprocessableContent && body["error.code"] == "invalid_code", "a code works once")
            (status, body) = try await auth.post("/v1/survey/login", ["email": "guest@hotel.com", "pin": "cd34"])
            #expect(status == .ok && body["next"] == "welcome" && body["accessToken"] != nil)
        }
    }

    @Test("U4: five failed forgot-PIN tries send the user back to login and lock the flow")
    func forgotPinTriesExhausted() async throws {
        try await AuthTestHarness.run { auth in
            _ = try await auth.post("/v1/survey/signup", ["email": "lock@hotel.com", "pin": "ab12", "pinConfirmation": "ab12"])
            _ = try await auth.post("/v1/survey/forgot-pin/start", ["email": "lock@hotel.com"])
            let code = try #require(try await waitForPinCode(in: auth.smtp))
            for attempt in 1...5 {
                let (status, body) = try await auth.post(
                    "/v1/survey/forgot-pin", ["email": "lock@hotel.com", "code": code, "pin": "cd34", "pinConfirmation": "cd4\(attempt)"])
                #expect(status == .unprocessableContent && body["error.details.next"] == (attempt == 5 ? "login" : "retry"))
            }
            let (status, body) = try await auth.post(
                "/v1/survey/forgot-pin", ["email": "lock@hotel.com", "code": code, "pin": "cd34", "pinConfirmation": "cd34"])
            #expect(status == .unprocessableContent && body["error.code"] == "forgot_pin_tries_exhausted")
        }
    }

    @Test("U4: three invalid sign-up emails send the user back to login")
    func signUpEmailTries() async throws {
        try await AuthTestHarness.run { auth in
            for attempt in 1...3 {
                let (status, body) = try await auth.post(
                    "/v1/survey/signup", ["email": "not-an-email-\(attempt)", "pin": "ab12", "pinConfirmation": "ab12"])
                #expect(status == .unprocessableContent && body["error.details.next"] == (attempt == 3 ? "login" : "retry"))
            }
        }
    }

    @Test("U7: registrations publish user.registered through the outbox")
    func registrationEventInOutbox() async throws {
        try await AuthTestHarness.run { auth in
            let (status, _) = try await auth.post("/v1/survey/signup", ["email": "evt@hotel.com", "pin": "ab12", "pinConfirmation": "ab12"])
            #expect(status == .created)
            let rows = try await auth.db.client.query(
                "SELECT count(*) FROM outbox WHERE event_type = 'user.registered' AND topic = 'auth.users'", logger: auth.db.logger)
            for try await count in rows.decode(Int.self) { #expect(count == 2) }  // the bootstrap admin and this user
        }
    }
}
