import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import PlatformHTTP
import PlatformPostgres

/// An SMTP client (RFC 5321) for the reset and PIN mails (U2, U4): plain for a local relay or mail sink,
/// `STARTTLS` (RFC 3207, never downgraded: a server that does not offer it is an error) or TLS from the
/// first byte (RFC 8314), and `AUTH PLAIN` or `AUTH LOGIN` (RFC 4954) when credentials are configured, only
/// over TLS.
struct SMTPClient: Sendable {
    let configuration: SMTPConfiguration
    private let tls: NIOSSLContext?
    private let group: any EventLoopGroup
    /// The longest one mail's whole dialogue may take.
    var timeLimit: TimeAmount = .seconds(60)

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Builds the TLS context once, so a CA file that does not load stops start-up, not the first mail.
    init(configuration: SMTPConfiguration, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws {
        self.configuration = configuration
        self.group = group
        switch configuration.security {
        case .none:
            tls = nil
        case .startTLS, .tls:
            var tlsConfiguration = TLSConfiguration.makeClientConfiguration()
            if let caFile = configuration.caFile { tlsConfiguration.trustRoots = .file(caFile) }
            tls = try NIOSSLContext(configuration: tlsConfiguration)
        }
    }

    func send(to recipient: String, subject: String, body: String) async throws {
        // A recipient is an address someone typed: it must not smuggle commands or headers in.
        guard !recipient.isEmpty, !recipient.contains(where: { $0.isNewline || $0 == "<" || $0 == ">" }) else {
            throw Failure(description: "refusing to send to a malformed address")
        }
        var connection = try await SMTPConnection.open(
            host: configuration.host, port: configuration.port, tls: configuration.security == .tls ? tls : nil, group: group,
            timeLimit: timeLimit)
        do {
            try await deliver(on: &connection, to: recipient, subject: subject, body: body)
            _ = try? await connection.command("QUIT")
            await connection.close()
        } catch {
            await connection.close()
            throw error
        }
    }

    private func deliver(on connection: inout SMTPConnection, to recipient: String, subject: String, body: String) async throws {
        try Self.expect(220, try await connection.reply(), after: "connecting")
        var (extensions, ehlo) = try await hello(on: &connection)
        if configuration.security == .startTLS {
            guard extensions.offersStartTLS else {
                throw Failure(description: "SMTP server \(configuration.host) does not offer STARTTLS (SMTP_TLS=starttls); it said \(ehlo.text)")
            }
            try Self.expect(220, try await connection.command("STARTTLS"), after: "STARTTLS")
            guard let tls else { throw Failure(description: "no TLS context") }
            try await connection.startTLS(tls, host: configuration.host)
            // RFC 3207: what the server said before TLS is forgotten; ask again over the encrypted connection.
            (extensions, ehlo) = try await hello(on: &connection)
        }
        if let credentials = configuration.credentials {
            guard connection.isEncrypted else {
                throw Failure(description: "refusing to send SMTP credentials without TLS (set SMTP_TLS)")
            }
            try await authenticate(credentials, mechanisms: extensions.authMechanisms, on: &connection)
        }
        try Self.expect(250, try await connection.command("MAIL FROM:<\(configuration.from)>"), after: "MAIL FROM")
        try Self.expect(250, try await connection.command("RCPT TO:<\(recipient)>"), after: "RCPT TO")
        try Self.expect(354, try await connection.command("DATA"), after: "DATA")
        try await connection.write(MailMessage(from: configuration.from, to: recipient, subject: subject, body: body, date: Date()).dataSection)
        try Self.expect(250, try await connection.reply(), after: "the message")
    }

    private func hello(on connection: inout SMTPConnection) async throws -> (SMTPExtensions, SMTPReply) {
        let reply = try await connection.command("EHLO mobile-backend-auth")
        try Self.expect(250, reply, after: "EHLO")
        return (SMTPExtensions(ehloReply: reply), reply)
    }

    /// PLAIN when offered (one round trip), else LOGIN.
    private func authenticate(
        _ credentials: SMTPConfiguration.Credentials, mechanisms: Set<String>, on connection: inout SMTPConnection
    ) async throws {
        let encode = { (text: String) in Data(text.utf8).base64EncodedString() }
        if mechanisms.contains("PLAIN") {
            let token = encode("\u{0}\(credentials.username)\u{0}\(credentials.password.value)")
            try Self.expect(235, try await connection.command("AUTH PLAIN \(token)"), after: "AUTH PLAIN")
        } else if mechanisms.contains("LOGIN") {
            try Self.expect(334, try await connection.command("AUTH LOGIN"), after: "AUTH LOGIN")
            try Self.expect(334, try await connection.command(encode(credentials.username)), after: "the user name")
            try Self.expect(235, try await connection.command(encode(credentials.password.value)), after: "the password")
        } else {
            throw Failure(
                description:
                    "SMTP server \(configuration.host) offers no AUTH mechanism this client speaks (PLAIN, LOGIN); it offers \(mechanisms.sorted())"
            )
        }
    }

    private static func expect(_ code: Int, _ reply: SMTPReply, after step: String) throws {
        guard reply.code == code else { throw Failure(description: "SMTP server answered \(reply.text) to \(step)") }
    }
}

/// What a server's EHLO reply offers: its first line greets, each further line names an extension.
struct SMTPExtensions: Equatable {
    var offersStartTLS = false
    var authMechanisms: Set<String> = []

    init(ehloReply: SMTPReply) {
        for line in ehloReply.lines.dropFirst() {
            let separators: Set<Character> = [" ", "="]
            let words: [String] = line.uppercased().split(whereSeparator: { separators.contains($0) }).map { String($0) }
            guard let keyword = words.first else { continue }
            if keyword == "STARTTLS" { offersStartTLS = true }
            // Old servers also announce `AUTH=LOGIN`.
            if keyword == "AUTH" { authMechanisms.formUnion(words.dropFirst()) }
        }
    }
}

/// The DATA section of a plain-text mail (RFC 5322 headers, dot-stuffed body, the closing dot).
struct MailMessage {
    var from: String
    var to: String
    var subject: String
    var body: String
    var date: Date

    var dataSection: String {
        let date = Self.rfc5322Date(self.date)
        // Header values come from our templates and a checked address; line breaks are dropped all the same.
        let header = { (value: String) in value.filter { !$0.isNewline } }
        var message = "From: <\(header(from))>\r\nTo: <\(header(to))>\r\nSubject: \(header(subject))\r\nDate: \(date)\r\n"
        message += "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n"
        // Dot-stuffing: a line starting with "." gets another, so it cannot end the DATA section.
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.hasSuffix("\r") ? line.dropLast() : line
            message += (text.hasPrefix(".") ? "." : "") + text + "\r\n"
        }
        return message + ".\r\n"
    }

    /// `Tue, 24 Nov 2026 18:05:09 +0000` (RFC 5322 §3.3).
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}
