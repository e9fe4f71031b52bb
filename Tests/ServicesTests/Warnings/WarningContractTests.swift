import Foundation
import PlatformHTTP
import TestSupport
import Testing

@testable import WarningDetector

/// warning-detector against its own document (X3):
/// Schemathesis anonymously, with a user's and with an admin's token, every check on.
@Suite("warning-detector: API contract", .serialized)
struct WarningContractTests {
    @Test("X3: Schemathesis finds no failure anonymously, as a user and as an admin", arguments: [nil, UserRole.user, .admin])
    func test_X3_fuzzed(role: UserRole?) async throws {
        try await WarningTestHarness.run { harness in
            var token: String?
            if let role { token = try await harness.token("fuzz-\(role.rawValue)", role: role) }
            let outcome = try await Schemathesis.run(baseURL: "http://127.0.0.1:\(harness.client.port ?? 0)", bearer: token)
            #expect(outcome.exitCode == 0, "\(outcome.output)")
        }
    }
}
