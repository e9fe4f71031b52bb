import Foundation
import PlatformHTTP
import ServiceTestSupport
import TestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("The built service executables, as operators run them")
struct ServiceProcessTests {
    @Test("X4: a service without AUTH_PUBLIC_KEY refuses to start and names the variable")
    func missingConfigFailsStartup() async throws {
        let run = try ServiceProcess(executable: "weather-fetcher", environment: ["HTTP_PORT": "0"])
        let status = try await run.waitForExit(timeout: .seconds(30))
        #expect(status == 2)
        #expect(run.standardError.contains("AUTH_PUBLIC_KEY"))
    }

    @Test("X4: a malformed value refuses start-up naming the variable")
    func malformedConfigFailsStartup() async throws {
        let tokens = try TestTokens()
        let run = try ServiceProcess(
            executable: "auth", environment: ["HTTP_PORT": "http", "AUTH_PUBLIC_KEY": tokens.publicKeyBase64URL])
        #expect(try await run.waitForExit(timeout: .seconds(30)) == 2)
        #expect(run.standardError.contains("HTTP_PORT"))
    }

    @Test("X4: a running service becomes ready and stops cleanly on SIGTERM")
    func gracefulShutdownOnSigterm() async throws {
        let tokens = try TestTokens()
        let port = freePort()
        try await withTestDatabase(schema: "appointment_booker", migrations: appointmentBookerMigrations) { db in
            let run = try ServiceProcess(
                executable: "appointment-booker",
                environment: ServiceEnvironment(db, tokens: tokens).variables(
                    httpPort: "\(port)",
                    [
                        "METRICS_PORT": "0", "READING_KEY": TestSecrets.readingKey,
                        "KAFKA_GROUP_ID": "process-\(uniqueSuffix())",
                    ]))
            let ready = try await eventually(timeout: .seconds(30)) {
                await httpStatus("http://127.0.0.1:\(port)/ready") == 200
            }
            #expect(ready, "service did not become ready: \(run.standardError.suffix(2_000))")
            run.terminate()
            let status = try await run.waitForExit(timeout: .seconds(20))
            #expect(status == 0, "exit status after SIGTERM: \(run.standardError.suffix(2_000))")
        }
    }

    @Test("X4: a crashed service is started again at once on its port; the crash reporter never inherits the listening socket")
    func restartAfterCrash() async throws {
        let tokens = try TestTokens()
        let port = freePort()
        try await withTestDatabase(schema: "appointment_booker", migrations: appointmentBookerMigrations) { db in
            let environment = ServiceEnvironment(db, tokens: tokens).variables(
                httpPort: "\(port)",
                [
                    "METRICS_PORT": "0", "READING_KEY": TestSecrets.readingKey,
                    "KAFKA_GROUP_ID": "crash-\(uniqueSuffix())",
                ])
            let first = try ServiceProcess(executable: "appointment-booker", environment: environment)
            let ready = try await eventually(timeout: .seconds(30)) { await httpStatus("http://127.0.0.1:\(port)/ready") == 200 }
            #expect(ready, "service did not become ready: \(first.standardError.suffix(2_000))")
            // Ready may come from the socket before /proc shows it in the process's table: look for a while.
            let pid = first.processIdentifier
            _ = try await eventually(timeout: .seconds(10)) { ListeningSocket.descriptor(port: port, process: pid) != nil }
            let listener = try #require(
                ListeningSocket.descriptor(port: port, process: pid), "no socket of \(pid) listens on \(port): \(first.standardError.suffix(1_000))")
            #expect(ListeningSocket.isCloseOnExec(listener, process: first.processIdentifier), "the listening socket is inherited by children")
            // A crash (the runtime hands the process to swift-backtrace), then the supervisor's SIGKILL.
            kill(first.processIdentifier, SIGSEGV)
            try await Task.sleep(for: .milliseconds(300))
            // As a supervisor ends the whole unit (systemd's control group, a pod): the reporter too, which would
            // otherwise go on symbolicating a dead process on one of the machine's two cores for minutes.
            let reporters = ProcessTable.children(of: pid)
            kill(first.processIdentifier, SIGKILL)
            for child in reporters { kill(child, SIGKILL) }
            _ = try await first.waitForExit(timeout: .seconds(20))
            let second = try ServiceProcess(executable: "appointment-booker", environment: environment)
            // New connections, as a probe or the stack script makes: connections the crashed process had accepted
            // go to the crash reporter with it (NIO opens them without close-on-exec) and are never answered.
            let again = try await eventually(timeout: .seconds(30)) { await httpStatusOnNewConnection("http://127.0.0.1:\(port)/ready") == 200 }
            #expect(again, "the restarted service did not become ready: \(second.standardError.suffix(2_000))")
            second.terminate()
            #expect(try await second.waitForExit(timeout: .seconds(20)) == 0)
        }
    }

    @Test(
        "X4: an instance started after a member of its group was killed -9 reads /ready 503 while it holds no partition, 200 once the group drops the dead one"
    )
    func stallAfterAKilledMember() async throws {
        let tokens = try TestTokens()
        let group = "stall-\(uniqueSuffix())"
        try await withTestDatabase(schema: "appointment_booker", migrations: appointmentBookerMigrations) { db in
            func environment(port: Int) -> [String: String] {
                ServiceEnvironment(db, tokens: tokens).variables(
                    httpPort: "\(port)",
                    [
                        "METRICS_PORT": "0", "READING_KEY": TestSecrets.readingKey,
                        "KAFKA_GROUP_ID": group,
                        // The dead member keeps its partitions until its session ends: long enough to see the stall.
                        "KAFKA_SESSION_TIMEOUT_MS": "12000", "KAFKA_UNASSIGNED_READY_LIMIT_MS": "1000",
                    ])
            }
            let (firstPort, secondPort) = (freePort(), freePort())
            let first = try ServiceProcess(executable: "appointment-booker", environment: environment(port: firstPort))
            let ready = try await eventually(timeout: .seconds(60)) { await httpStatus("http://127.0.0.1:\(firstPort)/ready") == 200 }
            #expect(ready, "the first instance did not become ready: \(first.standardError.suffix(2_000))")
            // Dies without leaving the group, as after kill -9 or a node lost.
            kill(first.processIdentifier, SIGKILL)
            _ = try await first.waitForExit(timeout: .seconds(20))
            let second = try ServiceProcess(executable: "appointment-booker", environment: environment(port: secondPort))
            let stalled = try await eventually(timeout: .seconds(30), interval: .milliseconds(200)) {
                guard let answer = try? await LoopbackHTTP.send("GET", "http://127.0.0.1:\(secondPort)/ready", timeout: .seconds(5))
                else { return false }
                return answer.status == 503 && answer.text.contains("has held no partition")
            }
            #expect(stalled, "the replacement never said it holds no partition: \(second.standardError.suffix(2_000))")
            let recovered = try await eventually(timeout: .seconds(60)) { await httpStatus("http://127.0.0.1:\(secondPort)/ready") == 200 }
            #expect(recovered, "the replacement never became ready: \(second.standardError.suffix(2_000))")
            second.terminate()
            _ = try await second.waitForExit(timeout: .seconds(20))
        }
    }
}

/// A process's listening TCP socket, read from /proc as an operator would (`ss -lp` reads the same tables).
enum ListeningSocket {
    /// The descriptor of the socket listening on `port` in `process`.
    static func descriptor(port: Int, process: Int32) -> Int32? {
        var inodes: Set<String> = []
        for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
            // Read to the end: procfs reports a size of 0, and a one-read load returns only the table's first page.
            guard let data = try? FileHandle(forReadingFrom: URL(fileURLWithPath: table)).readToEnd() else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // local_address is HEXADDR:HEXPORT, st 0A is LISTEN, inode is the tenth field.
                guard fields.count > 9, fields[1].hasSuffix(":" + String(format: "%04X", port)), fields[3] == "0A" else { continue }
                inodes.insert(String(fields[9]))
            }
        }
        let folder = "/proc/\(process)/fd"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)"),
                target.hasPrefix("socket:["), inodes.contains(String(target.dropFirst(8).dropLast()))
            else { continue }
            return Int32(name)
        }
        return nil
    }

    /// The processes whose parent is `process` (from each /proc/PID/stat).
    /// Whether the descriptor carries O_CLOEXEC (`flags:` in fdinfo, octal).
    static func isCloseOnExec(_ fd: Int32, process: Int32) -> Bool {
        guard let text = try? String(contentsOfFile: "/proc/\(process)/fdinfo/\(fd)", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags:") }),
            let flags = Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8)
        else { return false }
        return flags & Int(O_CLOEXEC) != 0
    }
}
