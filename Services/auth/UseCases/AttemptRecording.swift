import Foundation

/// Where failed attempts are counted (U1, U4, U7): Postgres in the service (`AttemptStore`, under a lock per
/// subject), memory in the unit tests. A try is taken before the check it limits and counts as a failure until
/// it is released.
package protocol AttemptRecording: Sendable {
    /// Takes one try of `kind` for `subject`, or says until when none is left.
    func reserve(_ kind: AttemptKind, subject: String, limit: AttemptLimit) async throws -> AttemptReservation
    /// Gives a taken try back: it did not fail (or was never evaluated).
    func release(_ attempt: AttemptTry) async throws
    /// Forgets the failures of a subject after it succeeded.
    func clear(_ kind: AttemptKind, subject: String) async throws
    /// Forgets the failures of every subject that starts with `prefix` (an account's tries from all addresses).
    func clear(_ kind: AttemptKind, subjectsStartingWith prefix: String) async throws
    /// The subject's failures within `window`, oldest first.
    func failures(_ kind: AttemptKind, subject: String, within window: TimeInterval) async throws -> [Date]
}

/// What `reserve` found: a try taken (recorded as a failure until released), or none left.
package enum AttemptReservation: Sendable {
    case taken(AttemptTry)
    case locked(until: Date)
}

/// One try taken by `AttemptRecording.reserve`: it counts as a failure unless released.
package struct AttemptTry: Sendable, Equatable {
    package let kind: AttemptKind
    package let subject: String
    package let id: Int64
    /// Tries the subject has left when this one fails.
    package let triesLeftIfFailed: Int

    package init(kind: AttemptKind, subject: String, id: Int64, triesLeftIfFailed: Int) {
        self.kind = kind
        self.subject = subject
        self.id = id
        self.triesLeftIfFailed = triesLeftIfFailed
    }
}
