import PlatformHTTP

/// The partner, application and payment rules' refusals as HTTP answers: the one place they become HTTP errors.
extension BookingErrors {
    /// `missingPartner` is what a missing profile answers: the admin's `partnerNotFound`, or the signed-in
    /// partner's `noProfile`.
    static func answer(for refusal: PartnerRefusal, missingPartner: APIError = partnerNotFound) -> APIError {
        switch refusal {
        case .notAPartner: notAPartner
        case .profileExists: partnerExists
        case .partnerNotFound: missingPartner
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

    /// Runs a partner use case, answering its refusals (`missingPartner` as in `answer(for:missingPartner:)`).
    static func answeringPartnerRules<T>(missingPartner: APIError = partnerNotFound, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let refusal as PartnerRefusal {
            throw answer(for: refusal, missingPartner: missingPartner)
        } catch let refusal as PartnerApplicationRefusal {
            throw answer(for: refusal)
        } catch let refusal as PaymentRefusal {
            throw answer(for: refusal)
        }
    }
}
