/// Hashing and checking passwords and PINs (U1, U4, U7): bcrypt behind a bounded pool in the service
/// (`PasswordHasher`), a fast stand-in in the unit tests. Either may refuse when too many checks are waiting.
package protocol SecretHashing: Sendable {
    func hash(_ secret: String) async throws -> String
    func verify(_ secret: String, against hash: String) async throws -> Bool
}
