import PlatformHTTP

/// The HTTP answers to the refusals of the horoscope app's content (B4, B5): the prayer book, the daily horoscope
/// setting and the reading requests.
enum ContentErrors {
    static func answer(for refusal: PrayerRefusal) -> APIError {
        switch refusal {
        case .notFound: APIError.notFound("no prayer with this id")
        case .notKept: APIError.notFound()
        }
    }

    /// One 422 naming every field's problem, in the document's words.
    static func answer(for refusal: DailyHoroscopeRefusal) -> APIError {
        var problems: [String: String] = [:]
        for (field, problem) in refusal.problems {
            problems[field.rawValue] =
                switch problem {
                case .unknownTimeZone: "must be an IANA time zone such as Asia/Bangkok"
                case .malformedLocalTime: "must be HH:MM, 24-hour"
                case .neededToTurnOn: "is needed to turn the notification on"
                }
        }
        return JSONBody.validationError(problems)
    }

    static func answer(for refusal: CompatibilityQuestion.Refusal) -> APIError {
        switch refusal {
        case .notTwoSigns: JSONBody.schemaViolation(["signs": "must name exactly 2 signs"])
        case .notTwoNames: JSONBody.validationError(["names": "give two names of 1 to 100 characters"])
        case .notSignsOrNames: JSONBody.validationError(["signs": "give two signs or two names, not both"])
        }
    }
}

extension PrayerRefusal: HTTPRefusal {
    package var answer: APIError { ContentErrors.answer(for: self) }
}

extension DailyHoroscopeRefusal: HTTPRefusal {
    package var answer: APIError { ContentErrors.answer(for: self) }
}

extension CompatibilityQuestion.Refusal: HTTPRefusal {
    package var answer: APIError { ContentErrors.answer(for: self) }
}
