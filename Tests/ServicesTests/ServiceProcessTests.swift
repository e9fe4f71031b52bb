import Foundation
import Shared
import Testing
import TestSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("The built service executables, as operators run them")
struct ServiceProcessTests {
    @Test("X4: a service without AUTH_PUBLIC_KEY refuses to start and names the variable")
    func test_X4_missingConfigFailsStartup() async throws {
        let run = try ServiceProcess(executable: "weather-fetcher", environment: ["HTTP_PORT": "0"])
        let status = try await run.waitForExit(timeout: .seconds(30))
        #expect(status == 2)
        #expect(run.standardError.contains("AUTH_PUBLIC_KEY"))
    }

    @Test("X4: a malformed value refuses start-up naming the variable")
    func test_X4_malformedConfigFailsStartup() async throws {
        let tokens = try TestTokens()
        let run = try ServiceProcess(
            executable: "auth", environment: ["HTTP_PORT": "http", "AUTH_PUBLIC_KEY": tokens.publicKeyBase64URL])
        #expect(try await run.waitForExit(timeout: .seconds(30)) == 2)
        #expect(run.standardError.contains("HTTP_PORT"))
    }

    @Test("X4: a running service becomes ready and stops cleanly on SIGTERM")
    func test_X4_gracefulShutdownOnSigterm() async throws {
        let tokens = try TestTokens()
        let port = freePort()
        try await withTestDatabase(schema: "appointment_booker", migrate: false) { db in
            let run = try ServiceProcess(
                executable: "appointment-booker",
                environment: [
                    "HTTP_PORT": "\(port)", "POSTGRES_HOST": db.configuration.host, "POSTGRES_PORT": "\(db.configuration.port)",
                    "POSTGRES_USER": db.configuration.username, "POSTGRES_DATABASE": db.configuration.database,
                    "KAFKA_BROKERS": TestInfrastructure.current.kafkaBrokers, "AUTH_PUBLIC_KEY": tokens.publicKeyBase64URL,
                    "KAFKA_GROUP_ID": "process-\(uniqueSuffix())",
                ])
            let ready = try await eventually(timeout: .seconds(30)) {
                await httpStatus("http://127.0.0.1:\(port)/ready") == 200
            }
            #expect(ready, "service did not become ready: \(run.standardError.suffix(2_000))")
            run.terminate()
            let status = try await run.waitForExit(timeout: .seconds(20))
            #expect(status == 0, "exit status after SIGTERM: \(run.standardError.suffix(2_000))")
        }
    }
}

func httpStatus(_ url: String) async -> Int? {
    guard let (_, response) = try? await URLSession.shared.data(from: URL(string: url)!) else { return nil }
    return (response as? HTTPURLResponse)?.statusCode
}

/// A built service executable started with only the given environment (plus PATH).
final class ServiceProcess: @unchecked Sendable {
    // @unchecked: `errorData` is guarded by `lock`; `process` is only used through thread-safe Process API.
    private let process = ChildProcess()
    private let lock = NSLock()
    private var errorData = Data()

    init(executable: String, environment: [String: String]) throws {
        guard let directory = TestInfrastructure.current.buildDirectory else {
            Issue.record("TEST_BUILD_DIR is not set: run the tests with scripts/test.sh")
            throw CancellationError()
        }
        process.executableURL = URL(fileURLWithPath: directory).appendingPathComponent(executable)
        process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { a, _ in a }
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let chunk = handle.availableData
            guard let self, !chunk.isEmpty else { return }
            self.lock.withLock { self.errorData.append(chunk) }
        }
        try process.run()
    }

    var standardError: String { lock.withLock { String(decoding: errorData, as: UTF8.self) } }

    func terminate() { process.terminate() }  // SIGTERM

    func waitForExit(timeout: Duration) async throws -> Int32? {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            return nil
        }
        try await Task.sleep(for: .milliseconds(100))  // let the stderr reader drain
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
