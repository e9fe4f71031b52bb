import Foundation

/// How the kept telemetry names an account (U9): `p:` and a random pseudonym whose mapping analytics deletes with the
/// account (`AccountPseudonyms` in storage).
package enum AccountPseudonym {
    package static let prefix = "p:"

    /// A name for an erased account's late event: the prefix and a random value no row holds, so it counts as erased.
    package static func nobody() -> String { prefix + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "") }
}
