import Foundation

/// A warning's words for a push in the reader's language (U8): the stored texts are English (A1, as the
/// API serves them); a Thai reader gets the same facts in Thai, built from the warning's kind, severity and value.
package enum WarningWording {
    /// "เตือนภัยฝนตกหนัก ระดับรุนแรง".
    package static func thaiStatus(kind: WarningRule.Kind, severity: Severity) -> String {
        "เตือนภัย\(thaiNoun(kind)) \(thaiLevel(severity))"
    }

    /// "คาดว่าฝนตกหนักถึง 32 มม. ต่อชั่วโมง", the value taken from the English description the detector wrote; nil
    /// when the description has no value.
    package static func thaiDescription(kind: WarningRule.Kind, english: String) -> String? {
        guard let value = english.split(separator: " ").first(where: { Double($0) != nil }) else { return nil }
        return "คาดว่า" + thaiPhrase(kind).replacingOccurrences(of: "{v}", with: String(value))
    }

    /// When, in the reader's zone: "Monday 14:00" (English) or "วันจันทร์ 14:00" (Thai).
    package static func time(_ date: Date, zone: TimeZone, thai: Bool) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = zone
        formatter.locale = Locale(identifier: thai ? "th_TH" : "en_GB")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = "EEEE HH:mm"
        return formatter.string(from: date)
    }

    private static func thaiNoun(_ kind: WarningRule.Kind) -> String {
        switch kind {
        case .heat: "อากาศร้อนจัด"
        case .frost: "น้ำค้างแข็ง"
        case .wind: "ลมแรง"
        case .storm: "พายุฝนฟ้าคะนอง"
        case .heavyRain: "ฝนตกหนัก"
        case .snow: "หิมะตก"
        case .lowVisibility: "ทัศนวิสัยต่ำ"
        }
    }

    private static func thaiLevel(_ severity: Severity) -> String {
        switch severity {
        case .moderate: "ระดับปานกลาง"
        case .severe: "ระดับรุนแรง"
        case .extreme: "ระดับรุนแรงมาก"
        }
    }

    private static func thaiPhrase(_ kind: WarningRule.Kind) -> String {
        switch kind {
        case .heat: "อุณหภูมิสูงถึง {v} °C"
        case .frost: "อุณหภูมิต่ำถึง {v} °C"
        case .wind: "ลมกระโชกแรงถึง {v} กม./ชม."
        case .storm: "พายุฝนฟ้าคะนอง ลมกระโชกถึง {v} กม./ชม."
        case .heavyRain: "ฝนตกหนักถึง {v} มม. ต่อชั่วโมง"
        case .snow: "หิมะตกถึง {v} ซม. ต่อชั่วโมง"
        case .lowVisibility: "ทัศนวิสัยลดลงเหลือ {v} กม."
        }
    }
}
