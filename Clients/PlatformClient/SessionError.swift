import AuthContract

/// Why a session has no access token to offer.
public enum SessionError: Error, Sendable {
    /// Nothing is stored and this session has no way to start one (sign in, then `adopt` the answer).
    case signedOut
    /// Auth refused to start or renew the session; the body is the document's error, when it sent one.
    case refused(status: Int, error: Components.Schemas.ErrorBody?)
    /// Auth no longer takes the session's refresh token: the account was merged into another, deleted, or its
    /// session ended. The tokens are forgotten; an install session starts a new account on its next use.
    case accountEnded(error: Components.Schemas.ErrorBody?)
}
