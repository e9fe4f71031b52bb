import PlatformHTTP

/// The domain's refusals as HTTP answers: the one place they become HTTP errors.
enum WarningErrors {
    static let deviceRegisteredElsewhere = APIError(
        .conflict, code: "device_registered_elsewhere",
        message: "another account holds this device token; register it from the same app install (installId) to move it")
    static let deviceNotFound = APIError(.notFound, code: "device_not_found", message: "you have no device with that token")
    static let favouritesField = "may name at most \(NotificationSettingsRules.maxFavourites) cities"

    static func answer(for refusal: DeviceRefusal) -> APIError {
        switch refusal {
        case .registeredElsewhere: deviceRegisteredElsewhere
        case .notFound: deviceNotFound
        }
    }

    static func answer(for refusal: SettingsRefusal) -> APIError {
        switch refusal {
        case .tooManyFavourites: JSONBody.schemaViolation(["favourites": favouritesField])
        }
    }
}

extension DeviceRefusal: HTTPRefusal {
    package var answer: APIError { WarningErrors.answer(for: self) }
}

extension SettingsRefusal: HTTPRefusal {
    package var answer: APIError { WarningErrors.answer(for: self) }
}
