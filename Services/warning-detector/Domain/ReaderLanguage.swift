/// The language a push is written in for its reader (U8): Thai for a device that named `th` (or `th-TH`),
/// English otherwise.
package enum ReaderLanguage {
    package static func isThai(_ language: String?) -> Bool {
        language.map { $0.lowercased() == "th" || $0.lowercased().hasPrefix("th-") } ?? false
    }
}
