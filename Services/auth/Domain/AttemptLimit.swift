import Foundation

/// Counts failures of one kind for one subject inside a window, the rule behind every "N tries" of the seeds
/// and the brute-force lockout: after `maxFailures` failures within `window`, the subject is locked until the
/// window of the oldest counted failure ends.
package struct AttemptLimit: Sendable, Equatable {
    package let maxFailures: Int
    package let window: TimeInterval

    package init(maxFailures: Int, window: TimeInterval) {
        self.maxFailures = maxFailures
        self.window = window
    }

    /// When the subject may try again, or nil when it may try now.
    package func lockedUntil(failures: [Date], now: Date) -> Date? {
        let recent = failures.filter { now.timeIntervalSince($0) < window }.sorted()
        guard recent.count >= maxFailures else { return nil }
        return recent[recent.count - maxFailures].addingTimeInterval(window)
    }

    /// Tries left before the lock, counting `failures` within the window.
    package func triesLeft(failures: [Date], now: Date) -> Int {
        max(0, maxFailures - failures.filter { now.timeIntervalSince($0) < window }.count)
    }
}

/// The attempt limits of the service (U1, U4, U7).
package enum AttemptKind: String, Sendable, CaseIterable {
    /// Wrong dashboard passwords per account and client address (`AttemptSubject.ownerAndAddress`): a stranger
    /// elsewhere cannot use up the owner's tries.
    case dashboardPassword = "dashboard_password"
    /// Wrong passwords and PINs per account from every address: a ceiling high enough that the owner is not
    /// locked out by one stranger, low enough that many addresses together cannot guess a PIN.
    case accountCeiling = "account_ceiling"
    /// Failed logins of any kind per client address.
    case address
    /// Wrong survey PINs per account and client address: 3, then forgot-PIN.
    case surveyPin = "survey_pin"
    /// Invalid sign-up emails per client address: 3, then back to login.
    case signUpEmail = "signup_email"
    /// Sign-up PIN length or confirmation errors per email: 3.
    case signUpPin = "signup_pin"
    /// Forgot-PIN wrong codes and confirmation mismatches per account: 5.
    case forgotPin = "forgot_pin"
    /// Confirmation mails sent per account (3 an hour); apart from recovery mails, so asking for confirmations
    /// cannot use up an account's forgot-PIN mails.
    case verificationMail = "verification_mail"
    /// Wrong email-verification codes per account: 5 in 30 minutes.
    case verifyEmail = "verify_email"
    /// Wrong forgot-PIN codes from everyone together (subject `all`): a budget that many accounts and addresses
    /// guessing at once cannot exceed.
    case codeCheck = "code_check"
    /// Recovery mails (reset links, PIN codes) sent per account; every send counts, not only failures.
    case recoveryMail = "recovery_mail"
    /// Recovery mails sent per client address.
    case recoveryMailAddress = "recovery_mail_address"
    /// Survey sign-ups that reached the PIN hash, per client address; every one counts.
    case signUp = "signup"
    /// Guest sessions (each a new account) started per client address; every one counts.
    case guestSession = "guest_session"
    /// Install and guest accounts made per client address, and per network (subjects `network …`, `site …`); every one
    /// counts.
    case installAccount = "install_account"
    /// Install accounts deleted per client address; every one counts.
    case installDeletion = "install_deletion"
}

/// Whose tries a failure counts against.
package enum AttemptSubject {
    /// One account's tries from one client address (keyed like the address limits).
    package static func ownerAndAddress(_ account: UUID, address: String) -> String { "\(account.uuidString)|\(address)" }

    /// The prefix of every `ownerAndAddress` subject of `account`.
    package static func owner(_ account: UUID) -> String { "\(account.uuidString)|" }
}
