import Foundation

/// Where an app keeps its tokens: the Keychain on a phone, a file for a command-line tool, memory in a test.
/// The refresh token is the install's account: lose it and the next launch starts a new one.
public protocol TokenStore: Sendable {
    func load() async throws -> SessionTokens?
    func save(_ tokens: SessionTokens?) async throws
}

/// Tokens for as long as the process lives.
public actor MemoryTokenStore: TokenStore {
    private var tokens: SessionTokens?

    public init(_ tokens: SessionTokens? = nil) { self.tokens = tokens }

    public func load() -> SessionTokens? { tokens }
    public func save(_ tokens: SessionTokens?) { self.tokens = tokens }
}

/// Tokens in a JSON file only its owner may read (a tool's or a server-side app's session).
public struct FileTokenStore: TokenStore {
    public let url: URL

    public init(url: URL) { self.url = url }

    public func load() throws -> SessionTokens? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder.tokens.decode(SessionTokens.self, from: Data(contentsOf: url))
    }

    public func save(_ tokens: SessionTokens?) throws {
        guard let tokens else {
            try? FileManager.default.removeItem(at: url)
            return
        }
        // Written beside the file, readable by its owner only from the first byte, then renamed over it.
        let partial = url.appendingPathExtension("partial")
        try? FileManager.default.removeItem(at: partial)
        guard
            FileManager.default.createFile(
                atPath: partial.path, contents: try JSONEncoder.tokens.encode(tokens), attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: partial.path]) }
        guard rename(partial.path, url.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
    }
}

extension JSONEncoder {
    fileprivate static var tokens: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

extension JSONDecoder {
    fileprivate static var tokens: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
