/// The platform tables every service schema has. `outbox` holds events written in the same transaction as the
/// state change they describe; `processed_events` holds the ids of events a consumer already applied;
/// `consumer_attempts` holds, per partition, the offsets a consumer is applying right now, committed before
/// the handler runs, so a message that keeps taking the process down is recognised after the restart.
public enum OutboxSchema {
    public static let migrations: [Migration] = [
        Migration(
            "0000_platform_outbox",
            [
                """
                CREATE TABLE outbox (
                    id bigserial PRIMARY KEY,
                    event_id uuid NOT NULL UNIQUE,
                    event_type text NOT NULL,
                    topic text NOT NULL,
                    key text NOT NULL,
                    payload bytea NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    sent_at timestamptz
                )
                """,
                // The relay reads unsent rows in id order; sent rows stay for audit until purged.
                "CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL",
                "CREATE INDEX outbox_sent_at ON outbox (sent_at) WHERE sent_at IS NOT NULL",
                """
                CREATE TABLE processed_events (
                    event_id uuid PRIMARY KEY,
                    topic text NOT NULL,
                    processed_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX processed_events_processed_at ON processed_events (processed_at)",
            ]),
        Migration(
            "0000_platform_consumer_attempts",
            [
                // One row per partition while a batch is in hand; deleted in the batch's own transaction. A row
                // found in flight at the start of a batch means the process died while applying those offsets.
                """
                CREATE TABLE consumer_attempts (
                    consumer_group text NOT NULL,
                    topic text NOT NULL,
                    partition int NOT NULL,
                    first_offset bigint NOT NULL,
                    last_offset bigint NOT NULL,
                    attempt_id uuid NOT NULL,
                    crashes int NOT NULL DEFAULT 0,
                    in_flight boolean NOT NULL,
                    started_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (consumer_group, topic, partition)
                )
                """
            ]),
        Migration(
            "0000_platform_outbox_trace",
            [
                // The W3C trace context of the request that wrote the event, sent as its `traceparent` header.
                "ALTER TABLE outbox ADD COLUMN trace_parent text"
            ]),
    ]
}
