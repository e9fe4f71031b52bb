/// What a public share page may show of a reading (B4): no one's phone number or name. A phone-number or
/// compatibility reading is about someone's number or names, so its page shows what kind of reading it was,
/// its verdict and its scores, not its words; any other reading's words pass with every run of nine or more
/// digits (a phone number's length; a date has eight) masked but the last two.
enum ShareMasking {
    static func isPersonal(_ kind: Reading.Kind) -> Bool { kind == .phoneNumber || kind == .compatibility }

    /// `text` with each run of 9+ digits (spaces, dots, dashes and brackets between them count in the run) shown
    /// as bullets but its last two digits.
    static func maskingNumbers(_ text: String) -> String {
        var output = ""
        var run: [Character] = []
        func flush() {
            let digits = run.filter(\.isNumber).count
            if digits >= 9 {
                var seen = 0
                for character in run {
                    if character.isNumber {
                        seen += 1
                        output.append(seen > digits - 2 ? character : "•")
                    } else {
                        output.append(character)
                    }
                }
            } else {
                output.append(contentsOf: run)
            }
            run.removeAll()
        }
        for character in text {
            if character.isNumber || (!run.isEmpty && " .-()".contains(character)) {
                run.append(character)
            } else {
                flush()
                output.append(character)
            }
        }
        flush()
        return output
    }
}
