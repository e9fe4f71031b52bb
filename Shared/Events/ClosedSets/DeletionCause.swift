/// Who ended an account (U9).
public enum DeletionCause: String, CaseIterable, Codable, Sendable {
    /// Its owner.
    case owner = "self"
    case admin
    /// An install account that did nothing for `INSTALL_IDLE_DAYS`.
    case expiry
}
