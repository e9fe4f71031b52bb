/// A field the seeds treat as missing when blank: the text, or nil when it is missing or only whitespace.
package func nonEmpty(_ value: String?) -> String? {
    guard let value, !value.trimmingWhitespace().isEmpty else { return nil }
    return value
}
