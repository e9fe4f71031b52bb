import Foundation

/// What recording a payment notification did (U6).
package enum PaymentOutcome: Equatable { case recorded, duplicate, unknownAccount }
