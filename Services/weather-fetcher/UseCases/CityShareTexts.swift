import Foundation

/// The share texts of a city (W10) in the seed's templates, from its latest weather and active warnings. The
/// API answers them; the share pages show the kept ones.
package struct CityShareTexts: Sendable {
    package let reader: any LatestCityWeather
    package let warnings: any ActiveCityWarnings
    package let texts: ShareTexts
    package let appLink: String?

    package init(reader: any LatestCityWeather, warnings: any ActiveCityWarnings, texts: ShareTexts, appLink: String?) {
        self.reader = reader
        self.warnings = warnings
        self.texts = texts
        self.appLink = appLink
    }

    package enum Kind: String, Sendable {
        case app, home, forecast, warning
    }

    /// Why there is no text of the kind asked for.
    package enum Unavailable: Error, Equatable {
        case noAppLink
        case noActiveWarning(city: String)
        case weatherUnavailable
        case noForecastForDay(Int)
    }

    /// `requestedBy`: the caller's client key, whose on-demand refreshes a stale city spends (`CityWeatherReader`).
    package func text(_ kind: Kind, day dayIndex: Int, city: City, requestedBy caller: String) async throws -> String {
        switch kind {
        case .app:
            guard let appLink else { throw Unavailable.noAppLink }
            return texts.app(link: appLink)
        case .warning:
            guard let warning = try await warnings.active(cityId: city.id).first else { throw Unavailable.noActiveWarning(city: city.name) }
            return texts.warning(city: city, status: warning.status, statusDescription: warning.statusDescription)
        case .home, .forecast:
            guard let latest = try await reader.weather(for: city, requestedBy: caller, now: Date()),
                let clock = LocalClock(identifier: city.timeZone)
            else {
                throw Unavailable.weatherUnavailable
            }
            let report = latest.report
            if kind == .home { return texts.home(city: city, current: report.current) }
            let days = report.daily.filter { $0.date >= clock.dayKey(Date()) }
            guard dayIndex < days.count, let start = clock.startOfDay(days[dayIndex].date) else {
                throw Unavailable.noForecastForDay(dayIndex)
            }
            let end = clock.startOfNextDay(after: start)
            let summary = ShareTexts.DaySummary(
                day: days[dayIndex], hours: report.hourly.filter { $0.time >= start && $0.time < end }, current: report.current)
            return texts.forecast(city: city, dayName: clock.dayName(start), summary: summary)
        }
    }
}

/// The latest weather of a city, refreshed on demand when it is old: `CityWeatherReader`, or a fixed one in the unit
/// tests.
package protocol LatestCityWeather: Sendable {
    /// `requestedBy`: the caller's client key, whose on-demand refreshes an old city spends.
    func weather(for city: City, requestedBy caller: String, now: Date) async throws -> LatestWeather?
}

extension CityWeatherReader: LatestCityWeather {}
