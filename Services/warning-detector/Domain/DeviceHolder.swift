import Foundation

/// The account holding a push token, and the app install it was registered from (A5).
struct DeviceHolder: Sendable, Equatable {
    var userId: String
    var installId: String?

    /// A token registers again for the account holding it; it moves to another account only from the app install it
    /// was registered with (the same `installId`), so nobody takes over another person's pushes by naming their
    /// token. A registration without an install id never moves a token.
    func letsRegister(userId other: String, installId claimed: String?) -> Bool {
        other == userId || (claimed != nil && claimed == installId)
    }
}
