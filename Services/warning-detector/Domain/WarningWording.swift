import Foundation

/// A warning's words for a push in the reader's language (issue 29): the stored texts are English (A1, as the
/// API serves them); a Thai reader gets the same facts in Thai, built from the warning's kind, severity and value.
enum WarningWording {
    /// "เตือนภัยฝนตกหนัก ระดับรุนแรง"; nil for a kind or severity it has no words for (the English text is used).
    static func thaiStatus(kind: String, severity: String) -> String? {
        guard let noun = thaiNouns[kind], let level = thaiLevels[severity.lowercased()] else { return nil }
        return "เตือนภัย\(noun) \(level)"
    }

    /// "คาดว่าฝนตกหนักถึง 32 มม. ต่อชั่วโมง", the value taken from the English description the detector wrote.
    static func thaiDescription(kind: String, english: String) -> String? {
        guard let value = english.split(separator: " ").first(where: { Double($0) != nil }), let phrase = thaiPhrases[kind] else { return nil }
        return "คาดว่า" + phrase.replacingOccurrences(of: "{v}", with: String(value))
    }

    /// When, in the reader's zone: "Monday 14:00" (English) or "วันจันทร์ 14:00" (Thai).
    static func time(_ date: Date, zone: TimeZone, thai: Bool) -> String {
        let formatter = DateFormatter()
        formatter.timeZone = zone
        formatter.locale = Locale(identifier: thai ? "th_TH" : "en_GB")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = "EEEE HH:mm"
        return formatter.string(from: date)
    }

    private static let thaiNouns = [
        "heat": "อากาศร้อนจัด", "frost": "น้ำค้างแข็ง", "wind": "ลมแรง", "storm": "พายุฝนฟ้าคะนอง", "heavy-rain": "ฝนตกหนัก",
        "snow": "หิมะตก", "low-visibility": "ทัศนวิสัยต่ำ",
    ]
    private static let thaiLevels = ["moderate": "ระดับปานกลาง", "severe": "ระดับรุนแรง", "extreme": "ระดับรุนแรงมาก"]
    private static let thaiPhrases = [
        "heat": "อุณหภูมิสูงถึง {v} °C", "frost": "อุณหภูมิต่ำถึง {v} °C", "wind": "ลมกระโชกแรงถึง {v} กม./ชม.",
        "storm": "พายุฝนฟ้าคะนอง ลมกระโชกถึง {v} กม./ชม.", "heavy-rain": "ฝนตกหนักถึง {v} มม. ต่อชั่วโมง",
        "snow": "หิมะตกถึง {v} ซม. ต่อชั่วโมง", "low-visibility": "ทัศนวิสัยลดลงเหลือ {v} กม.",
    ]
}
