import Foundation

/// The account holding a push token, and the app install it was registered from (A5).
package struct DeviceHolder: Sendable, Equatable {
    package var userId: String
    package var installId: String?

    package init(userId: String, installId: String? = nil) {
        self.userId = userId
        self.installId = installId
    }

    /// A token registers again for the account holding it; it moves to another account only from the app install it
    /// was registered with (the same `installId`), so nobody takes over another person's pushes by naming their
    /// token. A registration without an install id never moves a token.
    package func letsRegister(userId other: String, installId claimed: String?) -> Bool {
        other == userId || (claimed != nil && claimed == installId)
    }
}
