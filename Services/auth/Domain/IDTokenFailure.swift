import Foundation

/// Why an ID token was refused (U5), or that its provider could not be asked.
package enum IDTokenFailure: Error, Equatable {
    case invalidToken
    case wrongIssuer
    case wrongAudience
    case wrongNonce
    case providerUnreachable
}
