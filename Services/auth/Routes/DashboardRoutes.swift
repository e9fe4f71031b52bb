import Foundation
import Hummingbird
import Shared

/// Admin dashboard accounts (U1–U3): login with the seed's messages, change password, forgot/reset password.
struct DashboardRoutes {
    let auth: AuthContext

    func add(to router: Router<PlatformRequestContext>, verifier: AccessTokenVerifier) {
        let group = router.group("v1/dashboard")
        group.post("login", use: login)
        group.post("password/forgot", use: forgotPassword)
        group.get("password/reset", use: checkResetLink)
        group.post("password/reset", use: resetPassword)
        group.group("password/change").add(middleware: AccessTokenMiddleware(verifier: verifier)).post(use: changePassword)
    }

    @Sendable func login(_ request: Request, context: PlatformRequestContext) async throws -> SessionResponse {
        let body = try await request.decode(as: DashboardLoginRequest.self, context: context)
        guard let emailText = nonEmpty(body.email), let password = nonEmpty(body.password) else { throw AuthErrors.emptyField }
        guard let email = EmailAddress(emailText) else { throw AuthErrors.invalidEmail }
        let address = context.remoteAddress
        try await auth.checkNotLocked(.address, subject: address, limit: auth.configuration.addressLimit)
        guard let stored = try await auth.accounts.credentials(email: email), stored.account.kind == .dashboard,
            let hash = stored.passwordHash
        else {
            try await auth.attempts.recordFailure(.address, subject: address)
            throw AuthErrors.notRegistered
        }
        let account = stored.account
        let limit = auth.configuration.accountLimit
        try await auth.checkNotLocked(.dashboardPassword, subject: account.id.uuidString, limit: limit)
        guard await auth.hasher.verify(password, against: hash) else {
            try await auth.attempts.recordFailure(.dashboardPassword, subject: account.id.uuidString)
            try await auth.attempts.recordFailure(.address, subject: address)
            let failures = try await auth.attempts.failures(.dashboardPassword, subject: account.id.uuidString, within: limit.window)
            throw AuthErrors.wrongPassword(attemptsLeft: limit.triesLeft(failures: failures, now: Date()))
        }
        guard !account.banned else { throw AuthErrors.banned }
        try await auth.attempts.clear(.dashboardPassword, subject: account.id.uuidString)
        return try await auth.startSession(for: account)
    }

    @Sendable func changePassword(_ request: Request, context: PlatformRequestContext) async throws -> SessionResponse {
        let user = try context.requireUser()
        let body = try await request.decode(as: ChangePasswordRequest.self, context: context)
        guard let current = nonEmpty(body.currentPassword), let new = nonEmpty(body.newPassword),
            let confirmation = nonEmpty(body.confirmation)
        else { throw AuthErrors.emptyField }
        guard new == confirmation else {
            throw APIError(.badRequest, code: "confirmation_mismatch", message: AuthMessages.confirmationMismatch)
        }
        guard CredentialPolicy.isAcceptablePassword(new) else { throw AuthErrors.weakPassword }
        guard let id = UUID(uuidString: user.id), let stored = try await auth.accounts.credentials(id: id),
            stored.account.kind == .dashboard, let hash = stored.passwordHash
        else { throw APIError.forbidden }
        let limit = auth.configuration.accountLimit
        try await auth.checkNotLocked(.dashboardPassword, subject: user.id, limit: limit)
        guard await auth.hasher.verify(current, against: hash) else {
            try await auth.attempts.recordFailure(.dashboardPassword, subject: user.id)
            throw APIError(.badRequest, code: "wrong_current_password", message: AuthMessages.currentPasswordWrong)
        }
        // Every other session ends; the caller stays signed in with a fresh one (D25: back to the home page).
        try await auth.accounts.setPasswordHash(await auth.hasher.hash(new), for: id)
        return try await auth.startSession(for: stored.account)
    }

    @Sendable func forgotPassword(_ request: Request, context: PlatformRequestContext) async throws -> Response {
        let body = try await request.decode(as: ForgotPasswordRequest.self, context: context)
        guard let text = nonEmpty(body.email) else { throw AuthErrors.emptyField }
        let invalid = APIError(.badRequest, code: "invalid_email", message: AuthMessages.resetInvalidEmail)
        guard let email = EmailAddress(text) else { throw invalid }
        try await auth.checkNotLocked(.address, subject: context.remoteAddress, limit: auth.configuration.addressLimit)
        guard let stored = try await auth.accounts.credentials(email: email), stored.account.kind == .dashboard else {
            try await auth.attempts.recordFailure(.address, subject: context.remoteAddress)
            throw invalid
        }
        try await auth.resets.request(for: stored.account, email: email, linkBase: auth.configuration.resetLinkBaseURL)
        return try MessageResponse(message: AuthMessages.resetLinkSent).response(from: request, context: context)
            .with(status: .accepted)
    }

    /// Lets the reset page say at once whether its link still works (D22: "the link isn't valid").
    @Sendable func checkResetLink(_ request: Request, context: PlatformRequestContext) async throws -> MessageResponse {
        guard let token = request.uri.queryParameters["token"].map(String.init), !token.isEmpty,
            try await auth.resets.isUsable(token: token)
        else { throw AuthErrors.resetLinkInvalid }
        return MessageResponse(message: "the reset link is valid")
    }

    @Sendable func resetPassword(_ request: Request, context: PlatformRequestContext) async throws -> MessageResponse {
        let body = try await request.decode(as: ResetPasswordRequest.self, context: context)
        guard let token = nonEmpty(body.token), let new = nonEmpty(body.newPassword), let confirmation = nonEmpty(body.confirmation)
        else { throw AuthErrors.emptyField }
        guard new == confirmation else {
            throw APIError(.badRequest, code: "passwords_differ", message: AuthMessages.passwordsDiffer)
        }
        guard CredentialPolicy.isAcceptablePassword(new) else { throw AuthErrors.weakPassword }
        guard try await auth.resets.isUsable(token: token) else { throw AuthErrors.resetLinkInvalid }
        guard try await auth.resets.complete(token: token, passwordHash: await auth.hasher.hash(new)) else {
            throw AuthErrors.resetLinkInvalid
        }
        return MessageResponse(message: AuthMessages.passwordChanged, next: "login")
    }
}

extension Response {
    func with(status: HTTPResponse.Status) -> Response {
        var copy = self
        copy.status = status
        return copy
    }
}
