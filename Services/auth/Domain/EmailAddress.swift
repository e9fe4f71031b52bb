/// An email address in the `name@domain.tld` form the seeds ask for, normalised to lower case.
package struct EmailAddress: Hashable, Sendable, CustomStringConvertible {
    package let value: String

    package init?(_ text: String) {
        let trimmed = text.trimmingWhitespace().lowercased()
        guard trimmed.count <= 254 else { return nil }
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, let local = parts.first, let domain = parts.last,
            !local.isEmpty, local.count <= 64,
            local.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._%+-".contains($0)) }),
            !local.hasPrefix("."), !local.hasSuffix("."), !local.contains("..")
        else { return nil }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let topLevel = labels.last, topLevel.count >= 2, topLevel.allSatisfy(\.isLetter),
            labels.allSatisfy({ label in
                !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                    && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
            })
        else { return nil }
        value = trimmed
    }

    package var description: String { value }

    /// The mailbox behind the address, for "one per mailbox" rules: a `+tag` and, at Gmail, dots in the name
    /// deliver to the same inbox, so `a.b+1@gmail.com` and `ab@googlemail.com` are one mailbox.
    package var mailbox: String {
        let parts = value.split(separator: "@", maxSplits: 1)
        guard parts.count == 2 else { return value }
        var local = String(parts[0].prefix { $0 != "+" })
        var domain = String(parts[1])
        if domain == "gmail.com" || domain == "googlemail.com" {
            domain = "gmail.com"
            local.removeAll { $0 == "." }
        }
        return "\(local)@\(domain)"
    }
}

extension String {
    package func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
