import PlatformHTTP

// Each refusal of auth's rules and stores with its HTTP answer, the one place it is named (`HTTPRefusal`): the
// routes call their use cases and let the edge answer. A forgotten password's mail is the exception: the dashboard
// and the survey answer its refusals in their own flows' words, so those two routes say which.

extension MailedCodes.NotIssued: HTTPRefusal {
    var answer: APIError { AuthErrors.codeNotIssued }
}

extension AccountStore.NotCreated: HTTPRefusal {
    var answer: APIError { AuthErrors.accountNotCreated }
}

extension PasswordHasher.Busy: HTTPRefusal {
    var answer: APIError { AuthErrors.passwordChecksBusy }
}

extension TryLedger.Exhausted: HTTPRefusal {
    package var answer: APIError { AuthErrors.tooManyAttempts(until: until) }
}

extension DashboardLogin.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}

extension ChangeDashboardPassword.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}

extension SurveyLogin.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}

extension ResetPassword.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}

extension InviteAccount.Refusal: HTTPRefusal {
    package var answer: APIError {
        self == .invalidEmail ? AuthErrors.invalidEmail : APIError(.conflict, code: "email_taken", message: "an account with this email exists")
    }
}

extension SignUpSurvey.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}

extension FinishForgotPin.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}

extension EmailConfirmation.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}

extension RefreshSession.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}

extension ExternalLogin.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}

extension EndAccount.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}

extension AccountRefusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.unknownAccount }
}

extension UpdateProfile.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}

extension MergeInstallAccount.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}

extension EndSession.Refusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.sessionNotFound }
}

extension AttestationRefusal: HTTPRefusal {
    package var answer: APIError { AuthErrors.answer(self) }
}
