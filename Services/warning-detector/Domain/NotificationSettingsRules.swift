/// What a change of notification settings may name (A4).
package enum NotificationSettingsRules {
    /// A user's settings name at most this many favourite cities in one change.
    package static let maxFavourites = 100

    package static func allows(favouriteCount: Int) -> Bool { favouriteCount <= maxFavourites }
}

/// Why the settings rules refuse a change (A4). The API maps it to its error (`WarningErrors.answer(for:)`).
package enum SettingsRefusal: Error, Equatable {
    /// The change names more favourites than `NotificationSettingsRules.maxFavourites`.
    case tooManyFavourites
}
