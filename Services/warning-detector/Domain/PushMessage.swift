import Foundation
import PlatformCore
import PlatformEvents

/// The notifications the service sends (A5), as APNs JSON payloads.
package enum PushMessage {
    /// A new warning: "Watch out!" with where and what, and from when to when in the reader's time zone (the
    /// device's, else the warning city's) and language (Thai for `th`, else English); opens the city's warning.
    package static func warning(_ warning: Warning, timeZone: String?, language: String?) -> String {
        let zone = timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: warning.timeZone) ?? TimeZone(identifier: "UTC") ?? .current
        let thai = ReaderLanguage.isThai(language)
        let from = WarningWording.time(warning.onset, zone: zone, thai: thai)
        let until = WarningWording.time(warning.ends, zone: zone, thai: thai)
        let title: String, body: String
        if thai {
            let status = WarningWording.thaiStatus(kind: warning.kind, severity: warning.severity)
            title = "ระวัง! \(status)"
            body =
                (WarningWording.thaiDescription(kind: warning.kind, english: warning.statusDescription) ?? status)
                + " ตั้งแต่\(from) ถึง\(until)"
        } else {
            title = "Watch out! \(warning.status)"
            body = "\(warning.statusDescription) From \(from) until \(until)."
        }
        return payload(
            title: title, subtitle: warning.location, body: body, thread: "warnings",
            extra: ["type": "warning", "warningId": warning.id.uuidString, "cityId": warning.cityId, "timeZone": zone.identifier])
    }

    /// The daily forecast: "Look! Weather around you!" with the location, temperature and condition.
    /// With the day's extremes from the forecast (A5): "Max 24 °C, min 15 °C, Partly cloudy"; without them (an
    /// old forecast that does not reach today) the temperature the forecast was fetched with.
    package static func dailyForecast(
        city: ForecastCity, today: DailyExtremes?, temperatureC: Double, condition: String, description: String
    ) -> String {
        var extra: [String: any Sendable] = [
            "type": "daily-forecast", "cityId": city.id, "temperatureC": temperatureC.roundedClampedInt, "condition": condition,
        ]
        let body: String
        if let today {
            body = "Max \(today.maxC.roundedClampedInt) °C, min \(today.minC.roundedClampedInt) °C, \(description)"
            extra["maxC"] = today.maxC.roundedClampedInt
            extra["minC"] = today.minC.roundedClampedInt
        } else {
            body = "\(temperatureC.roundedClampedInt) °C, \(description)"
        }
        return payload(title: "Look! Weather around you!", subtitle: city.name, body: body, thread: "daily-forecast", extra: extra)
    }

    /// An appointment soon: "Your appointment is coming up" with the fortune teller and the time as the recipient
    /// reads it, in the device's time zone (UTC when it has none) and language (English, or Thai for `th`); the
    /// exact instant goes along as `startsAt` for the app.
    package static func appointmentReminder(_ reminder: AppointmentReminderDue, timeZone: String?, language: String?) -> String {
        let zone = timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC") ?? .current
        let thai = ReaderLanguage.isThai(language)
        let formatter = DateFormatter()
        formatter.timeZone = zone
        formatter.locale = Locale(identifier: thai ? "th_TH" : "en_GB")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = thai ? "EEEE d MMMM HH:mm" : "EEEE d MMMM, HH:mm"
        let local = formatter.string(from: reminder.startsAt)
        let instant = ISO8601DateFormatter().string(from: reminder.startsAt)
        return payload(
            title: thai ? "ใกล้ถึงเวลานัดหมายของคุณแล้ว" : "Your appointment is coming up", subtitle: reminder.partnerName,
            body: thai ? "เริ่ม \(local)" : "Starts \(local)", thread: "appointments",
            extra: [
                "type": "appointment-reminder", "bookingId": reminder.bookingId.uuidString.lowercased(), "startsAt": instant,
                "timeZone": zone.identifier,
            ])
    }

    /// The day's horoscope (B5): the sign as subtitle and the reading as body, in the device's language (English,
    /// or Thai for `th`), cut to what a notification shows; the app opens the full reading of `sign` and `date`.
    package static func dailyHoroscope(_ due: HoroscopeDailyDue, language: String?) -> String {
        let thai = ReaderLanguage.isThai(language)
        let text = thai ? due.textTh : due.textEn
        let body = text.count > 178 ? String(text.prefix(177)) + "…" : text
        return payload(
            title: thai ? "ดวงวันนี้" : "Your horoscope today", subtitle: thai ? due.titleTh : due.titleEn, body: body,
            thread: "daily-horoscope", extra: ["type": "daily-horoscope", "sign": due.sign, "date": due.localDate])
    }

    private static func payload(title: String, subtitle: String, body: String, thread: String, extra: [String: any Sendable]) -> String {
        var object: [String: Any] = [
            "aps": ["alert": ["title": title, "subtitle": subtitle, "body": body], "sound": "default", "thread-id": thread]
        ]
        for (key, value) in extra { object[key] = value }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
