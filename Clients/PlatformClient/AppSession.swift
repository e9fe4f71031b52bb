import AuthContract
import Foundation
import OpenAPIRuntime

/// An app's session with the platform (X6): the tokens in the app's store, renewed with auth's refresh route a
/// minute before they expire, and started on first use when the session knows how (an install account).
///
/// A refresh token works once and using one twice ends the session (U7), so renewals are single-flight: callers
/// that find the token stale at the same moment all wait for the one renewal in flight.
public actor AppSession {
    /// How a session starts when the store holds none: creating an install account, or nothing (the app signs in
    /// itself and hands the answer to `adopt`).
    public typealias Start = @Sendable (Client) async throws -> Components.Schemas.Session

    private let auth: Client
    private let store: any TokenStore
    private let start: Start?
    private let renewalMargin: TimeInterval
    private let now: @Sendable () -> Date
    private var renewal: Task<SessionTokens, any Error>?
    /// Bumped by `forget`: a renewal that started before keeps nothing (its answer may come after a logout).
    private var epoch = 0

    /// - Parameter auth: a client of auth without a `SessionMiddleware` (its refresh route takes no bearer).
    public init(
        auth: Client, store: any TokenStore, renewalMargin: TimeInterval = 60, now: @escaping @Sendable () -> Date = Date.init,
        start: Start? = nil
    ) {
        self.auth = auth
        self.store = store
        self.renewalMargin = renewalMargin
        self.now = now
        self.start = start
    }

    /// The session of an app install (weather, places, horoscope): its own account, created on first use (U8).
    /// `attestation`: the platform's proof that this is the real app on a real device (a Play Integrity token asked for
    /// with the SHA-256 of `installId` as its nonce), which makes the account trusted at once.
    public static func install(
        app: Operations.CreateInstallAccount.Input.Body.JsonPayload.AppPayload, installId: String, auth: Client, store: any TokenStore,
        attestation: Operations.CreateInstallAccount.Input.Body.JsonPayload.AttestationPayload? = nil
    ) -> AppSession {
        AppSession(
            auth: auth, store: store,
            start: { auth in
                switch try await auth.createInstallAccount(body: .json(.init(app: app, installId: installId, attestation: attestation))) {
                case .created(let answer): return try answer.body.json
                case .tooManyRequests(let answer): throw SessionError.refused(status: 429, error: try? answer.body.json)
                case .badRequest(let answer): throw SessionError.refused(status: 400, error: try? answer.body.json)
                case .unprocessableContent(let answer): throw SessionError.refused(status: 422, error: try? answer.body.json)
                case .serviceUnavailable(let answer): throw SessionError.refused(status: 503, error: try? answer.body.json)
                case .contentTooLarge, .unsupportedMediaType: throw SessionError.refused(status: 400, error: nil)
                case .undocumented(let status, _): throw SessionError.refused(status: status, error: nil)
                }
            })
    }

    /// The account the session belongs to, starting the session if it can.
    public func accountId() async throws -> String { try await current().accountId }

    /// A token to send now: the stored one while it has more than the margin left, else a renewed one.
    public func accessToken() async throws -> String { try await current().accessToken }

    /// The stored token or a renewed one, or nil when the session is signed out and cannot start one itself.
    public func accessTokenIfSignedIn() async throws -> String? {
        do {
            return try await accessToken()
        } catch SessionError.signedOut {
            return nil
        }
    }

    /// After the platform answered 401 to `rejected`: a renewed token, unless another call renewed it already.
    public func accessToken(replacing rejected: String) async throws -> String {
        if let renewal { return try await renewal.value.accessToken }
        if let stored = try await store.load(), stored.accessToken != rejected { return stored.accessToken }
        return try await renewed().accessToken
    }

    /// Renews the token now, before it is due: after a purchase, so the token carries the feature just paid for
    /// (tokens carry their account's entitlements from when they were issued).
    @discardableResult
    public func renewNow() async throws -> SessionTokens { try await renewed() }

    /// The refresh token stored for this session, for `mergeInstallAccount` once the install signs in for real.
    public func refreshToken() async throws -> String? { try await store.load()?.refreshToken }

    /// Keeps the session a sign-in answered with (survey PIN, dashboard login, OpenID Connect).
    @discardableResult
    public func adopt(_ session: Components.Schemas.Session) async throws -> SessionTokens {
        let tokens = SessionTokens(
            accessToken: session.accessToken, refreshToken: session.refreshToken,
            expiresAt: now().addingTimeInterval(TimeInterval(session.expiresIn)), accountId: session.account.id)
        try await store.save(tokens)
        return tokens
    }

    /// Forgets the tokens (after a logout or an account deletion).
    public func forget() async throws {
        epoch += 1
        renewal?.cancel()
        renewal = nil
        try await store.save(nil)
    }

    private func current() async throws -> SessionTokens {
        if let renewal { return try await renewal.value }
        if let stored = try await store.load(), stored.expiresAt.timeIntervalSince(now()) > renewalMargin { return stored }
        return try await renewed()
    }

    private func renewed() async throws -> SessionTokens {
        if let renewal { return try await renewal.value }
        let task = Task { try await self.renew() }
        renewal = task
        defer { if renewal == task { renewal = nil } }
        return try await task.value
    }

    /// Refresh when there is a refresh token, start when there is none. When auth no longer takes the refresh
    /// token (the account was merged, deleted or its session ended) the tokens are forgotten and the caller told
    /// (`accountEnded`); an install session then starts a new account on its next use.
    private func renew() async throws -> SessionTokens {
        let started = epoch
        if let stored = try await store.load() {
            switch try await auth.refreshSession(body: .json(.init(refreshToken: stored.refreshToken))) {
            case .ok(let answer):
                return try await keep(answer.body.json, ifStillIn: started)
            case .unauthorized(let answer):
                try await store.save(nil)
                throw SessionError.accountEnded(error: try? answer.body.json)
            case .forbidden(let answer): throw SessionError.refused(status: 403, error: try? answer.body.json)
            case .badRequest(let answer): throw SessionError.refused(status: 400, error: try? answer.body.json)
            case .contentTooLarge, .unsupportedMediaType: throw SessionError.refused(status: 400, error: nil)
            case .undocumented(let status, _): throw SessionError.refused(status: status, error: nil)
            }
        }
        guard let start else { throw SessionError.signedOut }
        return try await keep(start(auth), ifStillIn: started)
    }

    /// Keeps a renewal's answer unless the session was forgotten while it was on its way.
    private func keep(_ session: Components.Schemas.Session, ifStillIn started: Int) async throws -> SessionTokens {
        guard epoch == started else { throw SessionError.signedOut }
        return try await adopt(session)
    }
}
