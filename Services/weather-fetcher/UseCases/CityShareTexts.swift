import Foundation

/// The share texts of a city (W10) in the seed's templates, from its latest weather and active warnings. The
/// API answers them; the share pages show the kept ones.
struct CityShareTexts: Sendable {
    let reader: any LatestCityWeather
    let warnings: any ActiveCityWarnings
    let texts: ShareTexts
    let appLink: String?

    enum Kind: String, Sendable {
        case app, home, forecast, warning
    }

    /// Why there is no text of the kind asked for.
    enum Unavailable: Error, Equatable {
        case noAppLink
        case noActiveWarning(city: String)
        case weatherUnavailable
        case noForecastForDay(Int)
    }

    /// `requestedBy`: the caller's client key, whose on-demand refreshes a stale city spends (`CityWeatherReader`).
    func text(_ kind: Kind, day dayIndex: Int, city: City, requestedBy caller: String) async throws -> String {
        switch kind {
        case .app:
            guard let appLink else { throw Unavailable.noAppLink }
            return texts.app(link: appLink)
        case .warning:
            guard let warning = try await warnings.active(cityId: city.id).first else { throw Unavailable.noActiveWarning(city: city.name) }
            return texts.warning(city: city, status: warning.status, statusDescription: warning.statusDescription)
        case .home, .forecast:
            guard let latest = try await reader.weather(for: city, requestedBy: caller, now: Date()),
                let presenter = CityWeatherPresenter(city: city, now: Date())
            else {
                throw Unavailable.weatherUnavailable
            }
            let report = latest.report
            if kind == .home { return texts.home(city: city, current: report.current) }
            let days = report.daily.filter { $0.date >= presenter.clock.dayKey(presenter.now) }
            guard dayIndex < days.count, let start = presenter.clock.startOfDay(days[dayIndex].date) else {
                throw Unavailable.noForecastForDay(dayIndex)
            }
            let end = presenter.clock.startOfNextDay(after: start)
            let summary = ShareTexts.DaySummary(
                day: days[dayIndex], hours: report.hourly.filter { $0.time >= start && $0.time < end }, current: report.current)
            return texts.forecast(city: city, dayName: presenter.clock.dayName(start), summary: summary)
        }
    }
}

/// The latest weather of a city, refreshed on demand when it is old: `CityWeatherReader`, or a fixed one in the unit
/// tests.
protocol LatestCityWeather: Sendable {
    /// `requestedBy`: the caller's client key, whose on-demand refreshes an old city spends.
    func weather(for city: City, requestedBy caller: String, now: Date) async throws -> WeatherStore.Latest?
}

extension CityWeatherReader: LatestCityWeather {}
