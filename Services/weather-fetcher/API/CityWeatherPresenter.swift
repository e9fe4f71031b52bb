import Foundation

/// Turns a city's stored report into what the city screen shows at `now` (W3-W5): the right-now block in
/// the seed's units, hours from the next whole hour to local midnight, five days from today.
struct CityWeatherPresenter {
    let city: City
    let clock: LocalClock
    let now: Date

    init?(city: City, now: Date) {
        guard let clock = LocalClock(identifier: city.timeZone) else { return nil }
        self.city = city
        self.clock = clock
        self.now = now
    }

    func current(_ conditions: CurrentConditions) -> CurrentDTO {
        CurrentDTO(
            condition: conditions.condition.api, description: conditions.description,
            temperatureC: Units.rounded(conditions.temperatureC), temperature: Units.celsius(conditions.temperatureC))
    }

    func rightNow(_ report: WeatherReport) -> RightNowDTO {
        let current = report.current
        let today = report.daily.first { $0.date == clock.dayKey(now) }
        let miles = current.visibilityKm.map { Units.rounded(Units.miles(fromKilometres: $0)) }
        return RightNowDTO(
            pressureMb: Units.rounded(current.pressureMb), pressure: "\(current.pressureMb.roundedClampedInt) mb",
            windSpeedKmh: Units.rounded(current.windSpeedKmh), windSpeed: "\(current.windSpeedKmh.roundedClampedInt) km/h",
            windDirection: Units.compassPoint(degrees: current.windDirectionDegrees),
            windDirectionDegrees: current.windDirectionDegrees,
            dewPointC: Units.rounded(current.dewPointC), dewPoint: Units.celsius(current.dewPointC),
            humidityPercent: current.humidityPercent.rounded(), humidity: "\(current.humidityPercent.roundedClampedInt)%",
            sunrise: today?.sunrise.map(clock.timeOfDay), sunset: today?.sunset.map(clock.timeOfDay),
            visibilityMiles: miles, visibility: miles.map { "\(Units.trimmed($0)) mi" })
    }

    /// The hours strictly after now that start on the hour, up to the end of the city's local day (W4):
    /// at 3:20 PM that is 4 PM ... 11 PM; at 11:10 PM it is empty.
    func hours(_ report: WeatherReport) -> [HourDTO] {
        let endOfDay = clock.startOfNextDay(after: now)
        return report.hourly
            .filter { $0.time > now && $0.time < endOfDay && clock.minute($0.time) == 0 }
            .map { hour in
                HourDTO(
                    time: hour.time, hour: clock.hourLabel(hour.time), temperatureC: Units.rounded(hour.temperatureC),
                    temperature: Units.celsius(hour.temperatureC), condition: hour.condition.api,
                    description: hour.description)
            }
    }

    /// Five days starting with today in the city's time zone (W5).
    func days(_ report: WeatherReport) -> [DayDTO] {
        let today = clock.dayKey(now)
        return report.daily.filter { $0.date >= today }.prefix(5).map { day in
            DayDTO(
                date: day.date, day: clock.startOfDay(day.date).map(clock.dayName) ?? "",
                maxTemperatureC: Units.rounded(day.maxTemperatureC), minTemperatureC: Units.rounded(day.minTemperatureC),
                maxTemperature: Units.celsius(day.maxTemperatureC), minTemperature: Units.celsius(day.minTemperatureC),
                condition: day.condition.api, description: day.description)
        }
    }

    /// `updated a moment ago`, `updated 1 minute ago`, `updated 3 hours ago`.
    static func updatedText(minutes: Int) -> String {
        switch minutes {
        case ..<1: "updated a moment ago"
        case 1: "updated 1 minute ago"
        case 2..<60: "updated \(minutes) minutes ago"
        case 60..<120: "updated 1 hour ago"
        case 120..<2_880: "updated \(minutes / 60) hours ago"
        default: "updated \(minutes / 1_440) days ago"
        }
    }
}
