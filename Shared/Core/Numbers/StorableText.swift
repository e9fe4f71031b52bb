extension String {
    /// The text as Postgres `text` takes it: without NUL characters (which Postgres refuses, so storing a
    /// provider's error message that carried one failed, and the failure it described went unrecorded) and cut
    /// to `maxLength` characters. For messages from outside (provider errors), never for data that must stay exact.
    public func storableText(maxLength: Int = 2_000) -> String {
        let cleaned = contains("\u{0}") ? replacingOccurrences(of: "\u{0}", with: "") : self
        return cleaned.count > maxLength ? String(cleaned.prefix(maxLength)) : cleaned
    }
}
