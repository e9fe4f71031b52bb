import Foundation
import PlatformHTTP
import TestSupport
import Testing

@testable import AppointmentBooker

/// appointment-booker against its own document (X3): Schemathesis anonymously,
/// as a user allowed to book, as a partner with a profile, and as an admin, every check on.
@Suite("appointment-booker: API contract", .serialized)
struct AppointmentContractTests {
    @Test("X3: Schemathesis finds no failure anonymously, as a booking user, as a partner and as an admin", arguments: [nil, UserRole.user, .partner, .admin])
    func test_X3_fuzzed(role: UserRole?) async throws {
        // With a webhook secret: without one the partners' payment webhook is 503 by design.
        try await BookingTestHarness.run(extraEnvironment: ["PAYMENT_WEBHOOK_SECRET": "whsec-fuzz-0123456789abcdef0123456789"]) { harness in
            // Something to find: a listed partner with slots and a booking.
            let partner = try await harness.listedPartner()
            _ = try await harness.book(partner, try await harness.futureSlot(partner), bearer: try await harness.bookerToken())
            var token: String?
            switch role {
            // Every paid feature, so the purchased readings' bodies are fuzzed past the entitlement check.
            case .user?:
                token = try await harness.bookerToken(
                    entitlements: ["contact_fortune_teller", "tarot", "fortune_stick", "compatibility", "phone_number"])
            case .partner?: token = try await harness.partnerToken(partner)
            case let role?: token = try await harness.tokens.token(userId: UUID().uuidString, role: role)
            case nil: token = nil
            }
            let outcome = try await Schemathesis.run(baseURL: "http://127.0.0.1:\(harness.client.port ?? 0)", bearer: token)
            #expect(outcome.exitCode == 0, "\(outcome.output)")
        }
    }
}
