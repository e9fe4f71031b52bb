/// How an account signs in (U1, U4, U5, U8), as `auth.users` names it. Like every closed set on the topics, a value
/// outside it fails the payload's decoding, so the consumer dead-letters the event (`ClosedSetDecodingTests`).
public enum AccountKind: String, Codable, Sendable, CaseIterable {
    /// Admin dashboard: email + password (U1–U3).
    case dashboard
    /// Hotel survey: email + 4-character PIN (U4).
    case survey
    /// An OpenID Connect identity (U5), whichever app's client signed it in. (A horoscope guest is an `install`.)
    case horoscope
    /// An app install's own account, made without a form (U8); kept across launches by its refresh token.
    case install
}
