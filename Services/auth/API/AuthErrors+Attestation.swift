import PlatformHTTP

/// An install's refused attestation as HTTP: 422 `attestation_refused` naming the check it failed (the app's developers
/// read it; the token stays unreadable to anyone but Google), 422 `attestation_not_accepted` when this deployment checks
/// no attestation for the app (the request is the app's to change: send none), 503 `attestation_unavailable` when the
/// provider could not be asked.
extension AuthErrors {
    static func answer(_ refusal: AttestationRefusal) -> APIError {
        let reason: String
        switch refusal {
        case .notConfigured:
            return APIError(
                .unprocessableContent, code: "attestation_not_accepted",
                message: "this app's installs cannot be attested here; send the request without an attestation")
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
