import Foundation
import PlatformEvents

/// Turns a stored report into the `forecast.updated` event warning-detector reads (W6, A1).
package enum ForecastEventFactory {
    /// Hours sent with each event: enough for warnings about the next two days.
    package static let hoursAhead: TimeInterval = 48 * 3_600

    package static func event(for city: City, report: WeatherReport) -> EventEnvelope<ForecastUpdated> {
        let from = report.fetchedAt.addingTimeInterval(-3_600)
        let until = report.fetchedAt.addingTimeInterval(hoursAhead)
        let hours = report.hourly.filter { $0.time >= from && $0.time <= until }.map { hour in
            ForecastHour(
                time: hour.time, temperatureC: hour.temperatureC, condition: hour.condition,
                description: hour.description, windSpeedKmh: hour.windSpeedKmh, windGustKmh: hour.windGustKmh,
                precipitationMm: hour.precipitationMm, snowfallCm: hour.snowfallCm, visibilityKm: hour.visibilityKm)
        }
        let payload = ForecastUpdated(
            city: city.forecastCity, provider: report.provider, fetchedAt: report.fetchedAt,
            currentTemperatureC: report.current.temperatureC, currentCondition: report.current.condition,
            currentDescription: report.current.description, hours: hours)
        return EventEnvelope(
            type: EventTypes.forecastUpdated, occurredAt: report.fetchedAt, producer: ServiceIdentity.weatherFetcher.name,
            key: String(city.id), payload: payload)
    }
}
