import Foundation

/// What a mailed code did to a survey account's address (U4).
package enum EmailVerificationOutcome: Sendable, Equatable {
    case verified, alreadyVerified, invalidCode
}
