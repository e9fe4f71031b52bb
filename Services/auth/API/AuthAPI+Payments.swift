import Foundation
import PlatformCore
import PlatformHTTP

/// The payment provider's webhook (U6). `PaymentSignatureMiddleware` checks the signature on the raw body;
/// the handler refuses anything that did not pass it, whatever path or middleware order brought the request
/// here (without a configured secret nothing passes). Each payment id is applied once; a paid payment grants its entitlement, a refund takes it back.
extension AuthAPI {
    func receivePaymentNotification(
        _ input: Operations.ReceivePaymentNotification.Input
    ) async throws -> Operations.ReceivePaymentNotification.Output {
        guard RequestScope.context?.signatureVerified == true else { throw PaymentSignatureMiddleware.badSignature }
        guard case .json(let notification) = input.body else { throw APIError.unsupportedMediaType }
        var outside: [String: String] = [:]
        let paymentId = RequestText.withoutNUL(notification.paymentId)
        if paymentId.isEmpty || RequestText.length(notification.paymentId) > 100 { outside["paymentId"] = "is 1 to 100 characters" }
        if notification.amountCents < 0 { outside["amountCents"] = "must be at least 0" }
        let accountId = UUID(uuidString: notification.userId)
        if accountId == nil { outside["userId"] = "must be a UUID" }
        guard outside.isEmpty, let accountId else { throw JSONBody.schemaViolation(outside) }
        let received = RecordPayment.Notification(
            paymentId: paymentId, accountId: accountId, entitlement: notification.entitlement.domain, status: notification.status.domain,
            amountCents: notification.amountCents)
        switch try await RecordPayment(payments: admin).run(received) {
        case .recorded: return .ok(.message("payment recorded"))
        case .duplicate: return .ok(.message("payment already recorded"))
        }
    }
}

extension Operations.ReceivePaymentNotification.Input.Body.JsonPayload.StatusPayload {
    /// The generated enum and the domain's name the same two statuses.
    var domain: ProviderPaymentStatus {
        switch self {
        case .paid: .paid
        case .refunded: .refunded
        }
    }
}
