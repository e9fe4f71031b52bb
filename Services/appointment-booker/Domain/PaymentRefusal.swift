/// Why a payment provider's notification for a partner is refused (B6); the API maps it to its error.
package enum PaymentRefusal: Error, Equatable {
    /// The reference names no partner's fee and no ad: nothing is kept, so a corrected notification still applies.
    case unknownPurchase
}
