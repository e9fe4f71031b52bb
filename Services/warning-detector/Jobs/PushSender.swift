import Foundation
import Logging
import Metrics
import PlatformCore
import PlatformHTTP
import ServiceLifecycle
import Tracing

/// Sends due deliveries through APNs (A5): delivered ones are logged as sent; 429 and 5xx, an expired
/// provider token and no answer at all are retried with doubling backoff (at least the provider's
/// `Retry-After`) up to `PUSH_MAX_ATTEMPTS`; a token the provider reports unregistered or bad is removed
/// with everything still queued for it; any other refusal fails the delivery with the provider's reason. Each
/// delivery goes under its app's topic (U8); a token refused for that topic (`DeviceTokenNotForTopic`) is a
/// configuration error, logged and counted, never a reason to forget the token.
struct PushSender: Service {
    let queue: PushQueue
    /// One client per app whose key is configured.
    let apns: [PushApp: APNsClient]
    let policy: PushConfiguration
    let startGate: StartGate
    let logger: Logger
    var batchSize = 50

    static let tokenGone: Set<String> = ["Unregistered", "BadDeviceToken"]

    func run() async throws {
        guard !apns.isEmpty else {
            logger.warning("PUSH_TEAM_ID, PUSH_KEY_ID or PUSH_SIGNING_KEY is not set: notifications are queued but not sent")
            try? await gracefulShutdown()
            return
        }
        // A full batch may mean more are due at once.
        await runPeriodically(startGate: startGate, interval: policy.tick) { await runOnce() >= batchSize }
    }

    /// Sends one batch of due deliveries; how many it handled.
    @discardableResult
    func runOnce() async -> Int {
        guard !apns.isEmpty else { return 0 }
        do {
            let due = try await queue.claimDue(limit: batchSize, lease: policy.timeoutLease)
            await withTaskGroup(of: Void.self) { group in
                for delivery in due {
                    group.addTask {
                        guard let client = apns[delivery.app] else { return await unconfigured(delivery) }
                        await send(delivery, with: client)
                    }
                }
            }
            return due.count
        } catch {
            if !Task.isCancelled { logger.warning("push queue unavailable", metadata: ["error": "\(String(reflecting: error))"]) }
            return 0
        }
    }

    /// One delivery, in a span continuing the trace that decided it (a forecast's, a reminder's; a new trace
    /// for the daily message).
    private func send(_ delivery: PushQueue.Due, with apns: APNsClient) async {
        await withSpan("push send", context: PlatformTracing.context(traceParent: delivery.traceParent), ofKind: .internal) { span in
            span.attributes["push.delivery.id"] = delivery.id.uuidString
            span.attributes["push.attempt"] = delivery.attempts
            await sendInSpan(delivery, with: apns)
        }
    }

    private func sendInSpan(_ delivery: PushQueue.Due, with apns: APNsClient) async {
        let outcome = await apns.send(
            deviceToken: delivery.deviceToken, payload: delivery.payload, collapseId: delivery.dedupeKey,
            expiresAt: delivery.createdAt.addingTimeInterval(86_400))
        do {
            switch outcome {
            case .delivered(let apnsId):
                try await queue.markSent(delivery.id, status: 200, apnsId: apnsId)
                Counter(label: "push_deliveries_total", dimensions: [("result", "sent")]).increment()
            case .rejected(let status, let reason, _) where status == 400 && reason == "DeviceTokenNotForTopic":
                // The token is the other app's, or the topic is set wrong: the device keeps its token.
                try await queue.markFailed(delivery.id, status: status, error: reason)
                Counter(label: "push_configuration_errors_total", dimensions: [("app", delivery.app.rawValue), ("reason", reason)]).increment()
                logger.error(
                    "APNs refused a token under this app's topic: check PUSH_\(delivery.app.rawValue.uppercased())_TOPIC",
                    metadata: ["app": "\(delivery.app.rawValue)", "topic": "\(apns.topic)"])
            case .rejected(let status, let reason, _) where status == 410 || (status == 400 && Self.tokenGone.contains(reason)):
                try await queue.removeToken(delivery.deviceToken, status: status, reason: reason)
                Counter(label: "push_deliveries_total", dimensions: [("result", "token-removed")]).increment()
                logger.info("device token removed", metadata: ["status": "\(status)", "reason": "\(reason)"])
            case .rejected(let status, let reason, let retryAfter)
            where status == 429 || status >= 500 || (status == 403 && reason.hasSuffix("ProviderToken")):
                try await retryOrFail(delivery, status: status, error: reason, retryAfter: retryAfter)
            case .rejected(let status, let reason, _):
                try await queue.markFailed(delivery.id, status: status, error: reason)
                Counter(label: "push_deliveries_total", dimensions: [("result", "failed")]).increment()
                logger.warning("push refused", metadata: ["status": "\(status)", "reason": "\(reason)"])
            case .unreachable(let error):
                try await retryOrFail(delivery, status: nil, error: error, retryAfter: nil)
            }
        } catch {
            // The lease runs out and the delivery is tried again.
            logger.warning("could not record a push outcome", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    /// A delivery of an app without a configured key: failed, and said, rather than sent under another app's topic.
    private func unconfigured(_ delivery: PushQueue.Due) async {
        do {
            try await queue.markFailed(delivery.id, status: nil, error: "no APNs key configured for the \(delivery.app.rawValue) app")
            Counter(label: "push_configuration_errors_total", dimensions: [("app", delivery.app.rawValue), ("reason", "no_key")]).increment()
        } catch {
            logger.warning("could not record a push outcome", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    private func retryOrFail(_ delivery: PushQueue.Due, status: Int?, error: String, retryAfter: Duration?) async throws {
        guard delivery.attempts < policy.maxAttempts else {
            try await queue.markFailed(delivery.id, status: status, error: error)
            Counter(label: "push_deliveries_total", dimensions: [("result", "failed")]).increment()
            return
        }
        let doubling = policy.baseBackoff * (1 << min(delivery.attempts - 1, 20))
        let delay = max(min(doubling, policy.maxBackoff), retryAfter ?? .zero)
        try await queue.retryLater(delivery.id, status: status, error: error, after: delay)
        Counter(label: "push_deliveries_total", dimensions: [("result", "retry")]).increment()
    }
}

extension PushConfiguration {
    /// Long enough for a send and its bookkeeping; a delivery claimed by an instance that died is due after it.
    var timeoutLease: Duration { .seconds(60) }
}
