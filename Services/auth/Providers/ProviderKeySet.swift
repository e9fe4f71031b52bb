import Foundation

/// An identity provider's JWKS as this service trusts it: signing keys only, each with its algorithm fixed by
/// the key itself. A key without `alg` gets the one its type implies (`kty`/`crv`), never the one a token's
/// header asks for, so a token cannot pick a weaker or different algorithm for a key; keys without `kid` or of
/// a type that implies no algorithm are left out rather than failing the whole set.
struct ProviderKeySet: Sendable {
    /// The JWKS document to load, every key with its `alg`.
    let normalizedJSON: String
    /// `kid` → algorithm.
    let algorithms: [String: String]

    init?(json data: Data) {
        guard let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let keys = document["keys"] as? [[String: Any]]
        else { return nil }
        var kept: [[String: Any]] = []
        var algorithms: [String: String] = [:]
        for var key in keys {
            if let use = key["use"] as? String, use != "sig" { continue }
            guard let kid = key["kid"] as? String, !kid.isEmpty, algorithms[kid] == nil else { continue }
            guard let algorithm = (key["alg"] as? String) ?? Self.impliedAlgorithm(key) else { continue }
            key["alg"] = algorithm
            algorithms[kid] = algorithm
            kept.append(key)
        }
        guard let json = try? JSONSerialization.data(withJSONObject: ["keys": kept]) else { return nil }
        normalizedJSON = String(decoding: json, as: UTF8.self)
        self.algorithms = algorithms
    }

    static func impliedAlgorithm(_ key: [String: Any]) -> String? {
        switch (key["kty"] as? String, key["crv"] as? String) {
        case ("RSA", _): "RS256"
        case ("EC", "P-256"): "ES256"
        case ("EC", "P-384"): "ES384"
        case ("EC", "P-521"): "ES512"
        case ("OKP", "Ed25519"): "EdDSA"
        default: nil
        }
    }

    /// The token header's `kid` and `alg`, read without trusting anything else in it.
    static func header(of token: String) -> (kid: String?, alg: String?)? {
        guard let first = token.split(separator: ".", omittingEmptySubsequences: false).first, first.utf8.count <= 4_096 else { return nil }
        var base64 = first.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64),
            let header = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return (header["kid"] as? String, header["alg"] as? String)
    }
}
