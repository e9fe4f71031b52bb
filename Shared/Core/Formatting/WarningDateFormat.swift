import Foundation

/// Dates as the seed shows them (A3): `01:00 AM, Monday, 15/10/2015`, in the city's time zone. Shared:
/// warning-detector's warnings and weather-fetcher's city view show the same texts.
public enum WarningDateFormat {
    public static func string(_ date: Date, timeZone identifier: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: identifier) ?? TimeZone(identifier: "UTC")
        formatter.dateFormat = "hh:mm a, EEEE, dd/MM/yyyy"
        return formatter.string(from: date)
    }
}
