import Foundation

/// What an overall rating earned (N4): a coupon issued, one waiting for the address to be verified, or none because
/// the mailbox was rewarded already.
package enum CouponStatus: String, Sendable {
    case issued
    case awaitingVerification = "awaiting_verification"
    case mailboxAlreadyRewarded = "mailbox_already_rewarded"
}
