import Foundation
import PlatformCore
import PlatformHTTP
import PlatformPostgres
import ServiceTestSupport
import TestSupport
import Testing

@testable import Auth

/// The reset and PIN mails over a real SMTP server (aiosmtpd) secured as a provider's submission port would
/// be (U2): STARTTLS or TLS from the first byte, AUTH PLAIN or LOGIN, and every way that must not send.
@Suite("auth: SMTP with STARTTLS, TLS and AUTH against a real server")
struct AuthMailTests {
    static let login = SMTPSink.Login(user: "mailer@test.example", password: "s3cret-pass")

    static func client(
        _ sink: SMTPSink, _ security: SMTPConfiguration.Security, certificate: TestCertificate?, credentials: Bool = true,
        password: String = login.password
    ) throws -> SMTPClient {
        var client = try SMTPClient(
            configuration: SMTPConfiguration(
                host: "localhost", port: sink.port, from: "auth@test.example", security: security, caFile: certificate?.certificateFile,
                credentials: credentials ? .init(username: login.user, password: Secret(password)) : nil))
        client.timeLimit = .seconds(15)
        return client
    }

    @Test("U2: STARTTLS then AUTH PLAIN delivers; the server saw TLS and the mechanism")
    func startTLSWithPlain() async throws {
        let certificate = try TestCertificate()
        let sink = try SMTPSink(security: .starttls, certificate: certificate, login: Self.login)
        try await Self.client(sink, .startTLS, certificate: certificate)
            .send(to: "someone@example.com", subject: "Reset your password", body: "Line one\n.starts with a dot\nhttps://x.test/r?token=abc")
        #expect(sink.sessions == ["tls=yes auth=PLAIN user=mailer@test.example"])
        let mail = sink.mailbox
        #expect(mail.contains("Subject: Reset your password") && mail.contains("https://x.test/r?token=abc"))
        #expect(mail.contains("\n.starts with a dot"), "dot-stuffing is undone by the server: the line arrives as written")
        #expect(mail.range(of: #"Date: [A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} \+0000"#, options: .regularExpression) != nil)
    }

    @Test("U2: a server offering only AUTH LOGIN gets LOGIN; TLS from the first byte works too")
    func loginAndImplicitTLS() async throws {
        let certificate = try TestCertificate()
        let loginOnly = try SMTPSink(
            security: .starttls, certificate: certificate, login: .init(user: Self.login.user, password: Self.login.password, mechanisms: ["LOGIN"]))
        try await Self.client(loginOnly, .startTLS, certificate: certificate).send(to: "a@example.com", subject: "PIN", body: "1234")
        #expect(loginOnly.sessions == ["tls=yes auth=LOGIN user=mailer@test.example"])

        let smtps = try SMTPSink(security: .tls, certificate: certificate, login: Self.login)
        try await Self.client(smtps, .tls, certificate: certificate).send(to: "b@example.com", subject: "PIN", body: "5678")
        #expect(smtps.sessions == ["tls=yes auth=PLAIN user=mailer@test.example"])
        #expect(smtps.mailbox.contains("5678"))
    }

    @Test("U2: nothing is sent on a wrong password, an untrusted certificate, or a server without STARTTLS")
    func refusals() async throws {
        let certificate = try TestCertificate()
        let sink = try SMTPSink(security: .starttls, certificate: certificate, login: Self.login)
        await #expect(throws: SMTPClient.Failure.self) {
            try await Self.client(sink, .startTLS, certificate: certificate, password: "wrong").send(to: "a@example.com", subject: "s", body: "b")
        }
        // Without the test CA the server's certificate is not trusted: the handshake fails before AUTH.
        await #expect(throws: (any Error).self) {
            try await Self.client(sink, .startTLS, certificate: nil).send(to: "a@example.com", subject: "s", body: "b")
        }
        // A server that does not offer STARTTLS is not used in the clear (no downgrade).
        let plain = try SMTPSink()
        await #expect(throws: SMTPClient.Failure.self) {
            try await Self.client(plain, .startTLS, certificate: certificate, credentials: false).send(to: "a@example.com", subject: "s", body: "b")
        }
        // A recipient with a line break cannot add commands.
        await #expect(throws: SMTPClient.Failure.self) {
            try await Self.client(sink, .startTLS, certificate: certificate).send(
                to: "a@example.com>\r\nRCPT TO:<b@example.com", subject: "s", body: "b")
        }
        #expect(sink.mailbox.isEmpty && plain.mailbox.isEmpty && sink.sessions.isEmpty)
    }

    @Test("U2: a server (or a man in the middle) that sends more after its 220 to STARTTLS is refused before TLS starts")
    func startTLSInjectionRefused() async throws {
        let python = try #require(ProcessInfo.processInfo.environment["TEST_PYTHON"], "run the tests with scripts/test.sh")
        let port = freePort()
        // A plaintext reply smuggled in behind the 220 would otherwise be read as if it came over TLS.
        let script = """
            import socket
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", \(port))); s.listen(1)
            while True:
                c, _ = s.accept(); f = c.makefile("rb")
                try:
                    c.sendall(b"220 fake ESMTP\\r\\n")
                    if not f.readline(): continue  # the readiness probe
                    c.sendall(b"250-fake\\r\\n250 STARTTLS\\r\\n"); f.readline()
                    c.sendall(b"220 go ahead\\r\\n250 injected\\r\\n"); f.read(1)
                except OSError:
                    pass
            """
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try waitForPort(port, timeout: 20)
        let certificate = try TestCertificate()
        var client = try SMTPClient(
            configuration: SMTPConfiguration(
                host: "127.0.0.1", port: port, from: "auth@test.example", security: .startTLS, caFile: certificate.certificateFile))
        client.timeLimit = .seconds(10)
        do {
            try await client.send(to: "a@example.com", subject: "s", body: "b")
            Issue.record("mail was sent over an injected STARTTLS")
        } catch let failure as SMTPClient.Failure {
            #expect(failure.description.contains("more after agreeing to STARTTLS"), "\(failure)")
        }
    }

    @Test("U2: through the service, the reset link goes out over STARTTLS with AUTH, to the configured AUTH_RESET_URL")
    func serviceSendsOverStartTLS() async throws {
        let certificate = try TestCertificate()
        let sink = try SMTPSink(security: .starttls, certificate: certificate, login: Self.login)
        let environment = [
            "SMTP_HOST": "localhost", "SMTP_TLS": "starttls", "SMTP_TLS_CA_FILE": certificate.certificateFile,
            "SMTP_USERNAME": Self.login.user, "SMTP_PASSWORD": Self.login.password,
        ]
        try await AuthTestHarness.run(extraEnvironment: environment, smtp: sink) { auth in
            let (status, _) = try await auth.post("/v1/dashboard/password/forgot", ["email": "admin@example.com"])
            #expect(status == .accepted)
            #expect(try await waitForResetLink(in: auth.smtp) != nil)
            #expect(sink.sessions.first == "tls=yes auth=PLAIN user=mailer@test.example")
        }
    }
}
