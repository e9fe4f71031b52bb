import Foundation
import Shared

#if canImport(Glibc)
import Glibc
#endif

/// A small SMTP client (RFC 5321, no authentication or TLS: meant for a local relay or mail sink). Socket calls
/// block, so they run on a dispatch queue of their own, not on Swift's cooperative pool.
struct SMTPClient: Sendable {
    let configuration: SMTPConfiguration
    private let queue = DispatchQueue(label: "auth.smtp")

    init(configuration: SMTPConfiguration) {
        self.configuration = configuration
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func send(to recipient: String, subject: String, body: String) async throws {
        let configuration = self.configuration
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                continuation.resume(with: Result {
                    try Self.deliver(configuration: configuration, to: recipient, subject: subject, body: body)
                })
            }
        }
    }

    private static func deliver(configuration: SMTPConfiguration, to recipient: String, subject: String, body: String) throws {
        let connection = try LineConnection(host: configuration.host, port: configuration.port)
        defer { connection.close() }
        try connection.expect(220)
        try connection.command("EHLO mobile-backend-auth", expect: 250)
        try connection.command("MAIL FROM:<\(configuration.from)>", expect: 250)
        try connection.command("RCPT TO:<\(recipient)>", expect: 250)
        try connection.command("DATA", expect: 354)
        let date = Date().formatted(Date.ISO8601FormatStyle())
        var message = "From: <\(configuration.from)>\r\nTo: <\(recipient)>\r\nSubject: \(subject)\r\nDate: \(date)\r\n"
        message += "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n"
        // Dot-stuffing: a line starting with "." gets another, so it cannot end the DATA section.
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            message += (line.hasPrefix(".") ? "." : "") + line + "\r\n"
        }
        message += ".\r\n"
        try connection.write(message)
        try connection.expect(250)
        try? connection.command("QUIT", expect: 221)
    }
}

/// A blocking TCP connection read line by line, with a 10 s timeout on every read and write.
private final class LineConnection {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(host: String, port: Int) throws {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
            throw SMTPClient.Failure(description: "cannot resolve SMTP host \(host)")
        }
        defer { freeaddrinfo(result) }
        fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { throw SMTPClient.Failure(description: "socket() failed") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            Glibc.close(fd)
            throw SMTPClient.Failure(description: "cannot connect to SMTP server \(host):\(port)")
        }
    }

    func close() { Glibc.close(fd) }

    func write(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw SMTPClient.Failure(description: "SMTP write failed") }
            bytes = bytes.dropFirst(written)
        }
    }

    func command(_ line: String, expect code: Int) throws {
        try write(line + "\r\n")
        try expect(code)
    }

    /// Reads a (possibly multi-line) reply and checks its code.
    func expect(_ code: Int) throws {
        while true {
            let line = try readLine()
            guard line.count >= 3, let replyCode = Int(line.prefix(3)) else {
                throw SMTPClient.Failure(description: "bad SMTP reply: \(line)")
            }
            guard replyCode == code else { throw SMTPClient.Failure(description: "SMTP server answered: \(line)") }
            if line.count == 3 || line[line.index(line.startIndex, offsetBy: 3)] != "-" { return }
        }
    }

    private func readLine() throws -> String {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 1_024)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw SMTPClient.Failure(description: "SMTP connection closed or timed out") }
            buffer += chunk[..<count]
        }
    }
}
