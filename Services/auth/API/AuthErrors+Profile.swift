import Foundation
import PlatformHTTP

extension AuthErrors {
    /// The profile's refusals keep the field-keyed 422 shape of the document's validation errors.
    static func answer(_ refusal: UpdateProfile.Refusal) -> APIError {
        switch refusal {
        case .blankDisplayName: JSONBody.validationError(["displayName": "must not be blank"])
        case .unknownTimeZone: JSONBody.validationError(["timeZone": "must be an IANA time zone such as Asia/Bangkok"])
        case .noAccount: AuthAPI.noAccount
        }
    }
}
