/// A measure the dashboard's trends count per day (N5).
package enum TrendMeasure: String, CaseIterable, Sendable {
    case downloads, featureUses, cityViews

    /// City views are counted per city, whichever app showed the city: there is no app to narrow them to.
    package var isCountedPerApp: Bool { self != .cityViews }

    /// Refuses a trend narrowed to `app` when this measure is not counted per app.
    package func check(app: String?) throws(TrendRefusal) {
        if app != nil, !isCountedPerApp { throw .notPerApp(self) }
    }
}

/// Why a trend was not answered (N5); the API names each one's HTTP answer (`HTTPRefusal`).
package enum TrendRefusal: Error, Equatable {
    /// An app was named for a measure that is not counted per app.
    case notPerApp(TrendMeasure)
}
