/// What a change of notification settings may name (A4).
enum NotificationSettingsRules {
    /// A user's settings name at most this many favourite cities in one change.
    static let maxFavourites = 100

    static func allows(favouriteCount: Int) -> Bool { favouriteCount <= maxFavourites }
}

/// Why the settings rules refuse a change (A4). The API maps it to its error (`WarningErrors.answer(for:)`).
enum SettingsRefusal: Error, Equatable {
    /// The change names more favourites than `NotificationSettingsRules.maxFavourites`.
    case tooManyFavourites
}
