import ArgumentParser
import Shared

struct GenerateKeys: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-keys",
        abstract: "Print a new Ed25519 key pair as environment assignments (AUTH_PUBLIC_KEY, AUTH_SIGNING_KEY).")

    func run() async throws {
        let pair = try Ed25519KeyPair.generate()
        print("AUTH_PUBLIC_KEY=\(pair.publicKey)")
        print("AUTH_SIGNING_KEY=\(pair.privateKey)")
    }
}
