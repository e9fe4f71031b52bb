import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PlatformHTTP
import PlatformPostgres
import ServiceTestSupport
import TestSupport
import Testing

/// Attempt limits under a burst (U4, U7): tries are taken before the password, PIN or code is
/// checked, so fifty parallel wrong guesses get exactly the allowed number of evaluations. Each evaluated
/// guess leaves one `failed_attempts` row; a refused one leaves none.
@Suite("auth: attempt limits hold under concurrency")
struct AuthAttemptLimitTests {
    /// Sends `count` requests at once, each on a connection of its own (the harness' client has one connection,
    /// which would send them one after another); returns each answer's status and error code.
    static func burst(_ auth: AuthTestHarness, count: Int = 50, _ path: String, _ body: [String: String]) async throws -> [(Int, String?)] {
        try await burstWithRetryAfter(auth, count: count, path, body).map { ($0.0, $0.1) }
    }

    /// `burst`, with each answer's `Retry-After`.
    static func burstWithRetryAfter(
        _ auth: AuthTestHarness, count: Int = 50, _ path: String, _ body: [String: String]
    ) async throws -> [(Int, String?, String?)] {
        let port = try #require(auth.client.port)
        let data = try JSONEncoder().encode(body)
        return try await withThrowingTaskGroup(of: (Int, String?, String?).self) { group in
            for _ in 0..<count {
                group.addTask {
                    // Beside the rest of the suite a burst can wait long for its turn: a generous read timeout.
                    try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(90))) { client in
                        let response = try await client.post(path, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: data))
                        let answer = JSONObject(String(buffer: response.body ?? ByteBuffer()))
                        return (Int(response.head.status.code), answer["error.code"], response.head.headerFields[.retryAfter])
                    }
                }
            }
            var results: [(Int, String?, String?)] = []
            for try await result in group { results.append(result) }
            return results
        }
    }

    @Test("U7: 50 parallel wrong dashboard passwords: exactly LOCKOUT_MAX_FAILURES are checked, the rest get 429")
    func parallelWrongPasswords() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["LOCKOUT_MAX_FAILURES": "5", "ADDRESS_MAX_FAILURES": "1000"]) { auth in
            let answers = try await Self.burst(auth, "/v1/dashboard/login", ["email": "admin@example.com", "password": "Wrong1234"])
            let checked = answers.filter { $0.1 == "wrong_password" }.count
            #expect(checked == 5, "\(answers)")
            #expect(answers.filter { $0.0 == 429 && $0.1 == "too_many_attempts" }.count == 45, "\(answers)")
            #expect(try await auth.count("SELECT count(*)::int FROM failed_attempts WHERE kind = 'dashboard_password'") == 5)
            let (status, _) = try await auth.post("/v1/dashboard/login", ["email": "admin@example.com", "password": "Start1234"])
            #expect(status == .tooManyRequests, "locked even for the right password")
        }
    }

    @Test(
        "U7: password checks are a bounded pool: past BCRYPT_MAX_CONCURRENCY running and BCRYPT_MAX_QUEUE waiting, 429 busy with Retry-After, never a 5xx"
    )
    func bcryptPoolBounded() async throws {
        // One check at a time and no queue, each check about 280 ms of CPU: two of twenty parallel requests that
        // overlap at all make a refusal. Beside a loaded suite arrivals can spread, so up to three bursts are sent.
        let environment = [
            "BCRYPT_COST": "12", "BCRYPT_MAX_CONCURRENCY": "1", "BCRYPT_MAX_QUEUE": "0",
            "LOCKOUT_MAX_FAILURES": "1000", "ACCOUNT_MAX_FAILURES": "1000", "ADDRESS_MAX_FAILURES": "1000",
        ]
        try await AuthTestHarness.run(extraEnvironment: environment) { auth in
            var answers: [(Int, String?, String?)] = []
            for _ in 0..<3 where !answers.contains(where: { $0.1 == "busy" }) {
                answers += try await Self.burstWithRetryAfter(
                    auth, count: 20, "/v1/dashboard/login", ["email": "admin@example.com", "password": "Wrong1234"])
            }
            let busy = answers.filter { $0.0 == 429 && $0.1 == "busy" }
            #expect(!busy.isEmpty, "\(answers)")
            #expect(busy.allSatisfy { $0.2 == "1" }, "\(busy)")
            #expect(answers.allSatisfy { ($0.0 == 401 && $0.1 == "wrong_password") || ($0.0 == 429 && $0.1 == "busy") }, "\(answers)")
            // A refused request took no try: only the checked passwords count against the account.
            var checked = 0
            for answer in answers where answer.0 == 401 { checked += 1 }
            let recorded = try await auth.count("SELECT count(*)::int FROM failed_attempts WHERE kind = 'dashboard_password'")
            let rows =
                recorded == checked
                ? []
                : try await auth.db.client.query(
                    "SELECT id::text || ' ' || kind || ' ' || at::text FROM failed_attempts ORDER BY id", logger: auth.db.logger
                ).decode(String.self).collectAll()
            #expect(recorded == checked, "\(recorded) failures recorded for \(checked) checked passwords: \(answers) \(rows)")
        }
    }

    @Test("U7: 50 parallel logins from one address for unknown accounts: exactly ADDRESS_MAX_FAILURES are looked up")
    func parallelAddressThrottle() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["ADDRESS_MAX_FAILURES": "4"]) { auth in
            let answers = try await Self.burst(auth, "/v1/dashboard/login", ["email": "nobody@example.com", "password": "Wrong1234"])
            #expect(answers.filter { $0.0 == 401 }.count == 4, "\(answers)")
            #expect(answers.filter { $0.0 == 429 }.count == 46, "\(answers)")
            #expect(try await auth.count("SELECT count(*)::int FROM failed_attempts WHERE kind = 'address'") == 4)
        }
    }

    @Test("U4, X3: wrong forgot-PIN codes of many accounts together stop at CODE_CHECKS_PER_HOUR")
    func codeChecksHaveAGlobalBudget() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["CODE_CHECKS_PER_HOUR": "2", "ADDRESS_MAX_FAILURES": "1000"]) { auth in
            var answers: [String] = []
            for index in 0..<3 {
                let email = "budget\(index)@hotel.com"
                _ = try await auth.post("/v1/survey/signup", ["email": email, "pin": "ab12", "pinConfirmation": "ab12"])
                let (started, _) = try await auth.post("/v1/survey/forgot-pin/start", ["email": email])
                #expect(started == .accepted)
                let (status, body) = try await auth.post(
                    "/v1/survey/forgot-pin", ["email": email, "code": "000000x", "pin": "cd34", "pinConfirmation": "cd34"])
                answers.append("\(status.code) \(body["error.code"] ?? "")")
            }
            #expect(answers == ["422 invalid_code", "422 invalid_code", "429 too_many_attempts"], "\(answers)")
        }
    }

    @Test("U4: 50 parallel wrong survey PINs: exactly 3 are checked; 50 parallel wrong forgot-PIN codes: exactly 5 are compared")
    func parallelWrongPinsAndCodes() async throws {
        try await AuthTestHarness.run(extraEnvironment: ["ADDRESS_MAX_FAILURES": "1000"]) { auth in
            let email = "burst@hotel.com"
            _ = try await auth.post("/v1/survey/signup", ["email": email, "pin": "ab12", "pinConfirmation": "ab12"])
            let pins = try await Self.burst(auth, "/v1/survey/login", ["email": email, "pin": "zz99"])
            #expect(pins.filter { $0.1 == "wrong_pin" }.count == 2, "\(pins)")
            #expect(pins.filter { $0.1 == "pin_tries_exhausted" }.count == 48, "\(pins)")
            #expect(try await auth.count("SELECT count(*)::int FROM failed_attempts WHERE kind = 'survey_pin'") == 3)

            let (started, _) = try await auth.post("/v1/survey/forgot-pin/start", ["email": email])
            #expect(started == .accepted)
            let codes = try await Self.burst(
                auth, "/v1/survey/forgot-pin", ["email": email, "code": "1234567", "pin": "cd34", "pinConfirmation": "cd34"])
            #expect(codes.filter { $0.1 == "invalid_code" }.count == 5, "\(codes)")
            #expect(codes.filter { $0.1 == "forgot_pin_tries_exhausted" }.count == 45, "\(codes)")
            #expect(try await auth.count("SELECT count(*)::int FROM failed_attempts WHERE kind = 'forgot_pin'") == 5)
        }
    }
}
