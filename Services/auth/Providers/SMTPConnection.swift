import NIOCore
import NIOPosix
import NIOSSL
import Synchronization

/// One SMTP reply (RFC 5321 §4.2): its code and the text of each of its lines.
struct SMTPReply: Sendable, Equatable {
    var code: Int
    var lines: [String]

    var text: String { "\(code) \(lines.joined(separator: " / "))" }
}

/// A TCP connection to an SMTP server, over TLS from the start or after `STARTTLS`: writes command lines and
/// reads whole replies. Made and used by one task at a time (the replies' iterator is not shared).
struct SMTPConnection {
    private let channel: any Channel
    private var replies: AsyncThrowingStream<SMTPReply, any Error>.AsyncIterator
    private let readState: SMTPReadState
    private var repliesRead = 0
    /// True once the bytes go through TLS.
    private(set) var isEncrypted: Bool
    /// Closes the connection when the whole dialogue takes too long (a server that stops answering).
    private let deadline: Scheduled<Void>

    /// Connects; with `tls` the handshake comes first (implicit TLS, RFC 8314).
    static func open(
        host: String, port: Int, tls: NIOSSLContext?, group: any EventLoopGroup, timeLimit: TimeAmount
    ) async throws -> SMTPConnection {
        let (stream, continuation) = AsyncThrowingStream<SMTPReply, any Error>.makeStream()
        let serverName = Self.serverName(host)
        let readState = SMTPReadState()
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(.seconds(10))
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let tls {
                            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: serverName))
                        }
                        try channel.pipeline.syncOperations.addHandlers(
                            ByteToMessageHandler(SMTPReplyDecoder(state: readState)), SMTPReplyForwarder(continuation: continuation))
                    }
                }
                .connect(host: host, port: port).get()
        } catch {
            continuation.finish()
            throw SMTPClient.Failure(description: "cannot connect to SMTP server \(host):\(port): \(error)")
        }
        let deadline = channel.eventLoop.scheduleTask(in: timeLimit) { channel.close(promise: nil) }
        return SMTPConnection(
            channel: channel, replies: stream.makeAsyncIterator(), readState: readState, isEncrypted: tls != nil, deadline: deadline)
    }

    /// The next reply; throws when the connection closed or timed out first.
    mutating func reply() async throws -> SMTPReply {
        guard let reply = try await replies.next() else {
            throw SMTPClient.Failure(description: "SMTP connection closed or timed out")
        }
        repliesRead += 1
        return reply
    }

    /// Sends one command line and reads its reply.
    mutating func command(_ line: String) async throws -> SMTPReply {
        try await write(line + "\r\n")
        return try await reply()
    }

    func write(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// Starts TLS on the open connection (after the server's 220 to `STARTTLS`, RFC 3207): the handshake runs
    /// before the next command goes out. Anything the server sent after its 220 and before the handshake
    /// (bytes not yet read, or replies not yet taken) would be read as if it came over TLS: a man in the
    /// middle's way to inject replies (CVE-2011-0411's kind), so the connection is refused instead.
    mutating func startTLS(_ context: NIOSSLContext, host: String) async throws {
        let serverName = Self.serverName(host)
        let (channel, readState, repliesRead) = (self.channel, self.readState, self.repliesRead)
        try await channel.eventLoop.submit {
            // On the event loop, so no read can come between this check and the TLS handler.
            guard readState.bufferedBytes.load(ordering: .relaxed) == 0, readState.repliesDecoded.load(ordering: .relaxed) == repliesRead else {
                throw SMTPClient.Failure(description: "the SMTP server sent more after agreeing to STARTTLS; refusing to start TLS over it")
            }
            try channel.pipeline.syncOperations.addHandler(
                NIOSSLClientHandler(context: context, serverHostname: serverName), position: .first)
        }.get()
        isEncrypted = true
    }

    func close() async {
        deadline.cancel()
        try? await channel.close()
    }

    /// The name sent for SNI and checked against the certificate; nil for an IP address (SNI takes names
    /// only; the certificate is then checked against the address).
    private static func serverName(_ host: String) -> String? {
        (try? SocketAddress(ipAddress: host, port: 0)) == nil ? host : nil
    }
}

/// What the decoder holds back and has handed on, read on the event loop when TLS starts.
final class SMTPReadState: Sendable {
    let bufferedBytes = Atomic<Int>(0)
    let repliesDecoded = Atomic<Int>(0)
}

/// Splits the server's bytes into replies: lines `250-...` continue a reply, `250 ...` ends it.
private final class SMTPReplyDecoder: ByteToMessageDecoder {
    typealias InboundOut = SMTPReply
    /// RFC 5321 caps a reply line at 512 octets; a server sending far more is not speaking SMTP.
    static let maxLineLength = 4_096
    private var pending: [String] = []
    private let state: SMTPReadState

    init(state: SMTPReadState) {
        self.state = state
    }

    func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        defer { state.bufferedBytes.store(buffer.readableBytes + pending.count, ordering: .relaxed) }
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.maxLineLength { throw SMTPClient.Failure(description: "SMTP reply line too long") }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex + 1
        guard let raw = buffer.readString(length: length) else { return .needMoreData }
        // "\r\n" is one Character in Swift: `isNewline` covers it, comparing with "\r" or "\n" would not.
        let line = raw.trimmingSuffix { $0.isNewline }
        let characters = Array(line)
        guard characters.count >= 3, let code = Int(String(characters[0..<3])), (200...599).contains(code) else {
            throw SMTPClient.Failure(description: "bad SMTP reply: \(line.prefix(200))")
        }
        let continues = characters.count > 3 && characters[3] == "-"
        pending.append(characters.count > 4 ? String(characters[4...]) : "")
        if !continues {
            state.repliesDecoded.add(1, ordering: .relaxed)
            context.fireChannelRead(wrapInboundOut(SMTPReply(code: code, lines: pending)))
            pending = []
        }
        return .continue
    }

    func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

/// Hands each reply to the task holding the connection; a closed connection or an error ends the stream.
private final class SMTPReplyForwarder: ChannelInboundHandler {
    typealias InboundIn = SMTPReply
    private let continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation

    init(continuation: AsyncThrowingStream<SMTPReply, any Error>.Continuation) {
        self.continuation = continuation
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        continuation.yield(unwrapInboundIn(data))
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        continuation.finish(throwing: SMTPClient.Failure(description: "SMTP connection failed: \(error)"))
        context.close(promise: nil)
    }
}

extension String {
    fileprivate func trimmingSuffix(while drop: (Character) -> Bool) -> String {
        var end = endIndex
        while end > startIndex, drop(self[index(before: end)]) { end = index(before: end) }
        return String(self[..<end])
    }
}
