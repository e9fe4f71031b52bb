/// The U3 password policy and the U4 PIN format.
package enum CredentialPolicy {
    /// At least 8 characters with an upper-case letter, a lower-case letter and a digit; at most 128 (bcrypt
    /// reads 72 bytes, and nobody needs more to be safe).
    package static func isAcceptablePassword(_ password: String) -> Bool {
        password.count >= 8 && password.utf8.count <= 72
            && password.contains(where: \.isUppercase) && password.contains(where: \.isLowercase)
            && password.contains(where: \.isNumber)
    }

    /// Exactly 4 ASCII letters or digits.
    package static func isValidPin(_ pin: String) -> Bool {
        pin.count == 4 && pin.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
