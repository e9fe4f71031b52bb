import Foundation
import PlatformHTTP

/// Admin dashboard accounts (U1-U3): login with the seed's messages, change password, forgot/reset password.
extension AuthAPI {
    func loginDashboard(_ input: Operations.LoginDashboard.Input) async throws -> Operations.LoginDashboard.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let account = try await auth.dashboardLogin.run(email: body.email, password: body.password, clientKey: RequestScope.clientKey)
        return .ok(.session(try await auth.startSession(for: account)))
    }

    func changeDashboardPassword(
        _ input: Operations.ChangeDashboardPassword.Input
    ) async throws -> Operations.ChangeDashboardPassword.Output {
        let user = try RequestScope.requireUser()
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let account = try await auth.changeDashboardPassword.run(
            userId: user.id, current: body.currentPassword, new: body.newPassword, confirmation: body.confirmation)
        // Every other session ended with the new hash; the caller stays signed in with a fresh one (D25: back to
        // the home page).
        return .ok(.session(try await auth.startSession(for: account)))
    }

    func requestPasswordReset(_ input: Operations.RequestPasswordReset.Input) async throws -> Operations.RequestPasswordReset.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        let request = MailResetLink(recovery: auth.recoveryMail, links: auth.resets, linkBase: auth.configuration.resetLinkBaseURL)
        do {
            try await request.run(email: body.email, clientKey: RequestScope.clientKey)
        } catch let refusal as RequestRecoveryMail.Refusal {
            throw AuthErrors.dashboardAnswer(refusal)
        }
        return .accepted(.message(AuthMessages.resetLinkSent))
    }

    /// Lets the reset page say at once whether its link still works (D22: "the link isn't valid").
    func checkPasswordResetLink(_ input: Operations.CheckPasswordResetLink.Input) async throws -> Operations.CheckPasswordResetLink.Output {
        let token = input.query.token
        guard token.unicodeScalars.count <= 200 else { throw JSONBody.schemaViolation(["token": "is at most 200 characters"]) }
        guard !token.isEmpty, try await auth.resets.isUsable(token: token) else { throw AuthErrors.resetLinkInvalid }
        return .ok(.message("the reset link is valid"))
    }

    func resetPassword(_ input: Operations.ResetPassword.Input) async throws -> Operations.ResetPassword.Output {
        guard case .json(let body) = input.body else { throw APIError.unsupportedMediaType }
        try await auth.resetPassword.run(
            token: body.token, newPassword: body.newPassword, confirmation: body.confirmation, clientKey: RequestScope.clientKey)
        return .ok(.message(AuthMessages.passwordChanged, next: .login))
    }
}
