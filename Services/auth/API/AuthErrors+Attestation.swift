import PlatformHTTP

/// An install's refused attestation as HTTP: 422 `attestation_refused` naming the check it failed (the app's developers
/// read it; the token stays unreadable to anyone but Google), 503 `attestation_unavailable` when it could not be checked.
extension AuthErrors {
    static func answer(_ refusal: AttestationRefusal) -> APIError {
        let reason: String
        switch refusal {
        case .notConfigured:
            return APIError(.serviceUnavailable, code: "attestation_unavailable", message: "this app's installs cannot be attested here")
        case .providerUnavailable:
            return APIError(
                .serviceUnavailable, code: "attestation_unavailable", message: "the attestation could not be checked; try again",
                headers: [.retryAfter: "30"])
        case .invalidToken: reason = "invalid_token"
        case .wrongPackage: reason = "wrong_package"
        case .wrongNonce: reason = "wrong_nonce"
        case .stale: reason = "stale"
        case .appNotRecognized: reason = "app_not_recognized"
        case .deviceNotTrusted: reason = "device_not_trusted"
        case .reused: reason = "reused"
        }
        return APIError(
            .unprocessableContent, code: "attestation_refused", message: "the install's attestation does not attest this install",
            details: ["reason": reason])
    }
}
