import ArgumentParser
import PlatformHTTP

struct GenerateKeys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-keys",
        abstract: """
            Print a new Ed25519 key pair, a readings key and an erased accounts key as environment assignments \
            (AUTH_PUBLIC_KEY, AUTH_SIGNING_KEY, READING_KEY, ERASED_ACCOUNTS_KEY).
            """)

    func run() async throws {
        let pair = try Ed25519KeyPair.generate()
        print("AUTH_PUBLIC_KEY=\(pair.publicKey)")
        print("AUTH_SIGNING_KEY=\(pair.privateKey)")
        // 32 bytes from the system's CSPRNG (SystemRandomNumberGenerator reads getrandom on Linux).
        var random = SystemRandomNumberGenerator()
        func secret() -> String { (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &random)) }.joined() }
        print("READING_KEY=" + secret())
        print("ERASED_ACCOUNTS_KEY=" + secret())
    }
}
