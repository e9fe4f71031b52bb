import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A plain SMTP server (no TLS, no AUTH) in the test process, for the many tests whose service only needs
/// somewhere to deliver: one Python aiosmtpd per such test cost two interpreter starts. It keeps the
/// protocol's order as aiosmtpd does (EHLO or HELO, then MAIL, RCPT, DATA; 503 out of order), so a client
/// that skips a step fails here as it would against a real server. TLS and AUTH stay with aiosmtpd.
final class PlainSMTPServer: Sendable {
    let port: Int
    private let channel: any Channel
    private let store = Received()

    private final class Received: Sendable {
        let messages = Mutex<[String]>([])
    }

    /// On a free port, or on `fixedPort` (a running stack was configured with it before this server started), waiting
    /// up to 5 s for an earlier holder of that port to let it go.
    init(port fixedPort: Int = 0) throws {
        let store = store
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        SMTPSessionHandler { message in
                            store.messages.withLock { $0.append(message) }
                        })
                }
            }
        channel = try Self.bind(bootstrap, port: fixedPort)
        port = channel.localAddress?.port ?? 0
    }

    private static func bind(_ bootstrap: ServerBootstrap, port: Int) throws -> any Channel {
        var attempt = 0
        while true {
            do {
                return try bootstrap.bind(host: "127.0.0.1", port: port).wait()
            } catch  where port != 0 && attempt < 50 {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    /// The messages received, oldest first, as the client sent them (dot-stuffing undone).
    var messages: [String] { store.messages.withLock { $0 } }

    deinit { channel.close(promise: nil) }
}

/// One SMTP session: replies line by line; a message's lines are collected until the lone dot.
private final class SMTPSessionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum Stage { case connected, greeted, mailFrom, recipients, data }
    private var stage = Stage.connected
    /// Bytes of a line not yet ended by CR LF: a read may end inside a line, even inside a UTF-8 character.
    private var pending: [UInt8] = []
    private var message: [String] = []
    private let deliver: (String) -> Void

    init(deliver: @escaping (String) -> Void) {
        self.deliver = deliver
    }

    func channelActive(context: ChannelHandlerContext) {
        reply("220 smtp.test ESMTP", context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        pending += unwrapInboundIn(data).readableBytesView
        var start = 0
        while let end = pending[start...].indices.first(where: {
            pending[$0] == UInt8(ascii: "\r") && $0 + 1 < pending.count && pending[$0 + 1] == UInt8(ascii: "\n")
        }) {
            handle(Array(pending[start..<end]), context: context)
            start = end + 2
        }
        pending.removeFirst(start)
    }

    private func handle(_ line: [UInt8], context: ChannelHandlerContext) {
        if stage == .data {
            // The lone dot ends the message; a leading dot of any other line was doubled by the client.
            guard line != [UInt8(ascii: ".")] else {
                deliver(message.joined(separator: "\r\n"))
                message = []
                stage = .greeted
                return reply("250 OK", context: context)
            }
            message.append(String(decoding: line.first == UInt8(ascii: ".") ? line.dropFirst() : line[...], as: UTF8.self))
            return
        }
        let text = String(decoding: line, as: UTF8.self)
        let verb = text.prefix(while: { $0 != " " && $0 != ":" }).uppercased()
        switch (verb, stage) {
        case ("EHLO", _):
            stage = .greeted
            reply("250-smtp.test\r\n250-SIZE 33554432\r\n250-8BITMIME\r\n250-SMTPUTF8\r\n250 HELP", context: context)
        case ("HELO", _):
            stage = .greeted
            reply("250 smtp.test", context: context)
        case ("MAIL", .greeted):
            stage = .mailFrom
            reply("250 OK", context: context)
        case ("MAIL", _):
            reply(stage == .connected ? "503 Error: send HELO first" : "503 Error: nested MAIL command", context: context)
        case ("RCPT", .mailFrom), ("RCPT", .recipients):
            stage = .recipients
            reply("250 OK", context: context)
        case ("RCPT", _):
            reply("503 Error: need MAIL command", context: context)
        case ("DATA", .recipients):
            stage = .data
            reply("354 End data with <CR><LF>.<CR><LF>", context: context)
        case ("DATA", _):
            reply("503 Error: need RCPT command", context: context)
        case ("RSET", _):
            if stage != .connected { stage = .greeted }
            reply("250 OK", context: context)
        case ("NOOP", _):
            reply("250 OK", context: context)
        case ("QUIT", _):
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "221 Bye\r\n"))).whenComplete { _ in channel.close(promise: nil) }
        case ("STARTTLS", _), ("AUTH", _):
            reply("502 Error: command not implemented", context: context)
        default:
            reply("500 Error: command \"\(verb)\" not recognized", context: context)
        }
    }

    private func reply(_ text: String, context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: text + "\r\n")), promise: nil)
    }
}
