import Foundation

/// The seed's share messages (W10, stories 14 and 15), with the app's name from configuration:
/// - app: "Weather App + App link"
/// - home: "Weather App name + The weather today in + location name + is + temperature degree + weather condition"
/// - forecast: "... The weather forecasts for this + Day in + location name + is + temperature degree + weather
///   condition + humidity + wind speed wind direction + air pressure"
/// - warning: "... Watch out!! There is a warning in + location name + which is + status + status description"
package struct ShareTexts {
    package let appName: String

    package init(appName: String) {
        self.appName = appName
    }

    package func app(link: String) -> String {
        "\(appName) \(link)"
    }

    package func home(city: City, current: CurrentConditions) -> String {
        "\(appName): The weather today in \(city.name) is \(Units.celsius(current.temperatureC)) \(current.description)"
    }

    package func forecast(city: City, dayName: String, summary: DaySummary) -> String {
        "\(appName): The weather forecasts for this \(dayName) in \(city.name) is "
            + "\(Units.celsius(summary.temperatureC)) \(summary.description), "
            + "humidity \(summary.humidityPercent.roundedClampedInt)%, "
            + "wind \(summary.windSpeedKmh.roundedClampedInt) km/h \(Units.compassPoint(degrees: summary.windDirectionDegrees)), "
            + "pressure \(summary.pressureMb.roundedClampedInt) mb"
    }

    package func warning(city: City, status: String, statusDescription: String) -> String {
        "\(appName): Watch out!! There is a warning in \(city.name) which is \(status) \(statusDescription)"
    }

    /// What the forecast text says about one day: its maximum and condition, with the day's mean humidity
    /// and pressure and its strongest wind from the hourly data (the current values stand in when the
    /// provider gave no hours for that day).
    package struct DaySummary: Equatable {
        package var temperatureC: Double
        package var description: String
        package var humidityPercent: Double
        package var windSpeedKmh: Double
        package var windDirectionDegrees: Double
        package var pressureMb: Double

        package init(day: DailyForecast, hours: [HourlyForecast], current: CurrentConditions) {
            temperatureC = day.maxTemperatureC
            description = day.description
            let humidity = hours.compactMap(\.humidityPercent)
            let pressure = hours.compactMap(\.pressureMb)
            humidityPercent = humidity.isEmpty ? current.humidityPercent : humidity.reduce(0, +) / Double(humidity.count)
            pressureMb = pressure.isEmpty ? current.pressureMb : pressure.reduce(0, +) / Double(pressure.count)
            if let windiest = hours.max(by: { $0.windSpeedKmh < $1.windSpeedKmh }) {
                windSpeedKmh = windiest.windSpeedKmh
                windDirectionDegrees = windiest.windDirectionDegrees ?? current.windDirectionDegrees
            } else {
                windSpeedKmh = current.windSpeedKmh
                windDirectionDegrees = current.windDirectionDegrees
            }
        }
    }
}
