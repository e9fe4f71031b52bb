import Foundation
import PlatformCore

/// Unit conversions and renderings the seed asks for (W3): compass points, miles, local AM/PM times.
package enum Units {
    package static let kilometresPerMile = 1.609344

    package static func miles(fromKilometres kilometres: Double) -> Double {
        kilometres / kilometresPerMile
    }

    /// Rounds to `places` decimals, for values shown to people.
    package static func rounded(_ value: Double, places: Int = 1) -> Double {
        let scale = pow(10, Double(places))
        return (value * scale).rounded() / scale
    }

    private static let compassPoints = [
        "N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW",
    ]

    /// The 16-point compass direction the wind comes from: 0° and 360° are N, 22.5° is NNE.
    package static func compassPoint(degrees: Double) -> String {
        guard degrees.isFinite else { return "N" }  // a provider's NaN must not reach the Int conversion
        let normalised = degrees.truncatingRemainder(dividingBy: 360) + (degrees < 0 ? 360 : 0)
        return compassPoints[(normalised / 22.5).roundedClampedInt % 16]
    }

    /// `12°C`, rounded to a whole degree (`-0°C` shows as `0°C`).
    package static func celsius(_ value: Double) -> String {
        let whole = value.roundedClampedInt
        return "\(whole)°C"
    }

    package static func trimmed(_ value: Double) -> String {
        value == value.rounded() ? String(value.roundedClampedInt) : String(value)
    }
}
