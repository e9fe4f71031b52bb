import AuthContract

/// Why a session has no access token to offer.
public enum SessionError: Error, Sendable {
    /// Nothing is stored and this session has no way to start one (sign in, then `adopt` the answer).
    case signedOut
    /// Auth refused to start or renew the session; the body is the document's error, when it sent one.
    case refused(status: Int, error: Components.Schemas.ErrorBody?)
}
