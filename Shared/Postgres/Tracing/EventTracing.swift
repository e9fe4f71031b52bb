import Foundation
import PlatformCore
import PlatformEvents
import PlatformKafka
import ServiceContextModule
import Tracing

/// Consumer spans per event (X4). A partition's batch holds events of many traces; each event that came
/// with a `traceparent` gets a consumer span of its own, a child of its producer's span, and what the handler
/// does for it (its statements, the events and push deliveries it writes) happens in that span, so the trace
/// of one request runs on through every service its events reach. The batch's own span (the consumer's
/// transaction) is a root of its own that links to the events' traces.
public enum EventTracing {
    /// Runs `body` in a consumer span continuing `event`'s trace; without a `traceparent`, in the current context.
    public static func handling<Result>(
        _ event: ReceivedEvent, _ body: () async throws -> Result
    ) async throws -> Result {
        guard let traceParent = event.traceParent else { return try await body() }
        return try await withSpan(
            spanName(event), context: PlatformTracing.context(traceParent: traceParent), ofKind: .consumer
        ) { span in
            span.attributes["messaging.message.id"] = event.header.id.uuidString
            return try await body()
        }
    }

    /// A consumer span continuing `event`'s trace, for a handler that applies a batch's events together: it
    /// ends the span (with the error, if the batch failed) when the work for the event is done. Nil without a
    /// `traceparent`.
    static func startSpan(for event: ReceivedEvent) -> (any Span)? {
        guard let traceParent = event.traceParent else { return nil }
        let span = Tracing.startSpan(spanName(event), context: PlatformTracing.context(traceParent: traceParent), ofKind: .consumer)
        span.attributes["messaging.message.id"] = event.header.id.uuidString
        return span
    }

    /// Runs `body`, which applies `events` together, inside a consumer span for each traced event (each in its
    /// own trace, all covering the same work). What `body` writes is in no event's trace unless it names one:
    /// it is given each traced event's span as a `traceparent`, by event id, for what it writes for that event.
    public static func handlingTogether<Result>(
        _ events: [ReceivedEvent], _ body: (_ traceParents: [UUID: String]) async throws -> Result
    ) async throws -> Result {
        var spans: [any Span] = []
        var traceParents: [UUID: String] = [:]
        for event in events {
            guard let span = startSpan(for: event) else { continue }
            spans.append(span)
            traceParents[event.header.id] = PlatformTracing.traceParent(of: span.context)
        }
        do {
            let result = try await body(traceParents)
            for span in spans { span.end() }
            return result
        } catch {
            for span in spans {
                span.recordError(error)
                span.end()
            }
            throw error
        }
    }

    static func spanName(_ event: ReceivedEvent) -> String { "handle \(event.header.type.rawValue)" }
}

extension KafkaHeader {
    /// The W3C trace context header the relay sends with an event and consumers continue.
    public static let traceParentName = "traceparent"

    public static func traceParent(_ value: String) -> KafkaHeader { KafkaHeader(name: traceParentName, string: value) }
}

extension KafkaMessage {
    /// The producer's `traceparent` header, when it sent one.
    public var traceParent: String? { headers.first { $0.name == KafkaHeader.traceParentName }?.stringValue }
}
