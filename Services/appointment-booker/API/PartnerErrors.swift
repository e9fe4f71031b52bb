import PlatformHTTP

/// The partner, application and payment rules' refusals as HTTP answers: the one place they become HTTP errors.
extension BookingErrors {
    static func answer(for refusal: PartnerRefusal) -> APIError {
        switch refusal {
        case .notAPartner: notAPartner
        case .profileExists: partnerExists
        case .partnerNotFound: partnerNotFound
        case .adNotFound: adNotFound
        case .adWindow(let problems): JSONBody.validationError(problems)
        }
    }

    static func answer(for refusal: PartnerApplicationRefusal) -> APIError {
        switch refusal {
        case .termsNotCurrent(let current): termsNotCurrent(current)
        case .applicationExists: applicationExists
        case .applicationNotFound: applicationNotFound
        case .alreadyDecided: alreadyDecided
        case .accountNotTrusted: APIError.accountNotTrusted
        }
    }

    static func answer(for refusal: PaymentRefusal) -> APIError {
        switch refusal {
        case .unknownPurchase: unknownPurchase
        }
    }
}

extension PartnerRefusal: HTTPRefusal {
    /// A missing profile is the admin's `partnerNotFound`; the routes of a signed-in partner's own profile answer
    /// `noProfile` instead.
    package var answer: APIError { BookingErrors.answer(for: self) }
}

extension PartnerApplicationRefusal: HTTPRefusal {
    package var answer: APIError { BookingErrors.answer(for: self) }
}

extension PaymentRefusal: HTTPRefusal {
    package var answer: APIError { BookingErrors.answer(for: self) }
}
