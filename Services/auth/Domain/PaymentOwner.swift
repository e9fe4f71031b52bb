import Foundation

/// Whose account a payment provider's notification changes (U6). A payment stays with the account its first
/// notification was recorded for, wherever a merge has carried that account's payments since; a payment not seen
/// before belongs to the account the notification names, or, when that was an install merged away, to the account
/// it was merged into. So a refund takes back what it paid for even when the provider names the install's old id.
package enum PaymentOwner {
    /// `recorded`: the account holding the payment's rows, if any; `named`: the account the notification names, when it
    /// still exists; `mergedInto`: the account the named install was merged into, if it was. Nil: nobody's.
    package static func of(recorded: UUID?, named: UUID?, mergedInto: UUID?) -> UUID? {
        recorded ?? named ?? mergedInto
    }
}
