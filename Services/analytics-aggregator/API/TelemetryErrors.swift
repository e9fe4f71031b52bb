import PlatformHTTP

/// Telemetry refusals as HTTP: the one place they become HTTP errors.
enum TelemetryErrors {
    static func answer(for refusal: TelemetryRefusal) -> APIError {
        switch refusal {
        case .noValidEvents(let rejected):
            APIError(
                .unprocessableContent, code: "no_valid_events", message: "no event of the batch is valid",
                details: Dictionary(rejected.map { ("\($0.index)", "\($0.code): \($0.message)") }) { first, _ in first })
        case .brokerUnavailable:
            APIError(
                .serviceUnavailable, code: "broker_unavailable", message: "the events could not be stored; send the batch again",
                headers: [.retryAfter: "1"])
        case .storeUnavailable:
            APIError(
                .serviceUnavailable, code: "store_unavailable", message: "the events could not be stored; send the batch again",
                headers: [.retryAfter: "1"])
        }
    }
}

extension TelemetryRefusal: HTTPRefusal {
    package var answer: APIError { TelemetryErrors.answer(for: self) }
}
