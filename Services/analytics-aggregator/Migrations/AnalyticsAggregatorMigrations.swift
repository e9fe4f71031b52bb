import PlatformPostgres

/// The analytics-aggregator schema: the aggregates (N2) in generations, so that a rebuild (N6) can fill a
/// fresh copy while the live one keeps answering; and the poll's and survey's own records (N3, N4), which are
/// the source of their events, not aggregates.
/// `package`: the harnesses (`ServiceTestSupport`) migrate a test database with them.
package enum AnalyticsAggregatorMigrations {
    package static let all: [Migration] = [
        Migration(
            "0001_aggregates",
            [
                // One `current` generation answers queries; at most one `building` is filled by a rebuild and
                // by the live consumer alike, then becomes current.
                """
                CREATE TABLE generations (
                    id integer PRIMARY KEY,
                    state text NOT NULL CHECK (state IN ('current', 'building', 'retired')),
                    created_at timestamptz NOT NULL DEFAULT now(),
                    switched_at timestamptz
                )
                """,
                "CREATE UNIQUE INDEX generations_one_current ON generations (state) WHERE state IN ('current', 'building')",
                "INSERT INTO generations (id, state, switched_at) VALUES (1, 'current', now())",
                // The events each generation applied: the live consumer and a rebuild both write a building
                // generation, and each event must count once in it.
                """
                CREATE TABLE applied_events (
                    generation integer NOT NULL,
                    event_id uuid NOT NULL,
                    PRIMARY KEY (generation, event_id)
                )
                """,
                """
                CREATE TABLE downloads_daily (
                    generation integer NOT NULL,
                    day date NOT NULL,
                    app text NOT NULL,
                    platform text NOT NULL,
                    downloads bigint NOT NULL,
                    PRIMARY KEY (generation, day, app, platform)
                )
                """,
                // `sketch` is null while `users` is exact (the members are in feature_users); a HyperLogLog
                // sketch once the feature passed the exact limit.
                """
                CREATE TABLE features (
                    generation integer NOT NULL,
                    app text NOT NULL,
                    feature text NOT NULL,
                    users bigint NOT NULL,
                    uses bigint NOT NULL,
                    sketch bytea,
                    PRIMARY KEY (generation, app, feature)
                )
                """,
                "CREATE INDEX features_rank ON features (generation, users DESC, app, feature)",
                "CREATE INDEX features_name_prefix ON features (generation, lower(feature) text_pattern_ops)",
                """
                CREATE TABLE feature_users (
                    generation integer NOT NULL,
                    app text NOT NULL,
                    feature text NOT NULL,
                    user_key text NOT NULL,
                    PRIMARY KEY (generation, app, feature, user_key)
                )
                """,
                """
                CREATE TABLE city_views (
                    generation integer NOT NULL,
                    city_id bigint NOT NULL,
                    views bigint NOT NULL,
                    name text,
                    PRIMARY KEY (generation, city_id)
                )
                """,
                "CREATE INDEX city_views_rank ON city_views (generation, views DESC, city_id)",
                // Names weather's favourites gave cities (not per generation: a name is a fact, not a count).
                "CREATE TABLE city_names (city_id bigint PRIMARY KEY, name text NOT NULL)",
                """
                CREATE TABLE poll_results (
                    generation integer NOT NULL,
                    question text NOT NULL,
                    yes bigint NOT NULL,
                    no bigint NOT NULL,
                    PRIMARY KEY (generation, question)
                )
                """,
                """
                CREATE TABLE survey_service_results (
                    generation integer NOT NULL,
                    service text NOT NULL,
                    submissions bigint NOT NULL,
                    points bigint NOT NULL,
                    below_good bigint NOT NULL,
                    PRIMARY KEY (generation, service)
                )
                """,
                """
                CREATE TABLE survey_overall_results (
                    generation integer NOT NULL,
                    stars integer NOT NULL,
                    submissions bigint NOT NULL,
                    PRIMARY KEY (generation, stars)
                )
                """,
            ]),
        Migration(
            "0002_poll_and_survey",
            [
                """
                CREATE TABLE poll_answers (
                    user_id text NOT NULL,
                    question text NOT NULL,
                    answer boolean NOT NULL,
                    answered_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (user_id, question)
                )
                """,
                // auth's survey accounts, from its `user.registered` events.
                "CREATE TABLE survey_accounts (user_id text PRIMARY KEY, registered_at timestamptz NOT NULL)",
                """
                CREATE TABLE survey_services (
                    user_id text NOT NULL,
                    service text NOT NULL,
                    answers text[] NOT NULL,
                    points integer NOT NULL,
                    why text,
                    submitted_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (user_id, service)
                )
                """,
                """
                CREATE TABLE survey_overall (
                    user_id text PRIMARY KEY,
                    stars integer NOT NULL,
                    own_stars boolean NOT NULL,
                    points integer NOT NULL,
                    why text,
                    coupon_code text NOT NULL UNIQUE,
                    submitted_at timestamptz NOT NULL DEFAULT now()
                )
                """,
            ]),
        Migration(
            "0003_coupons_after_verified_email",
            [
                // A coupon only for an account whose address auth verified (`user.email-verified`), one per
                // mailbox per SURVEY_COUPON_WINDOW_DAYS. Coupons given before stay as they are.
                "ALTER TABLE survey_accounts ADD COLUMN verified_at timestamptz",
                "ALTER TABLE survey_accounts ADD COLUMN mailbox_key text",
                "ALTER TABLE survey_overall ALTER COLUMN coupon_code DROP NOT NULL",
                """
                ALTER TABLE survey_overall ADD COLUMN coupon_status text NOT NULL DEFAULT 'issued'
                    CHECK (coupon_status IN ('issued', 'awaiting_verification', 'mailbox_already_rewarded'))
                """,
                """
                CREATE TABLE survey_coupon_mailboxes (
                    user_id text PRIMARY KEY,
                    mailbox_key text NOT NULL,
                    issued_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX survey_coupon_mailboxes_by_key ON survey_coupon_mailboxes (mailbox_key, issued_at)",
            ]),
        Migration(
            "0004_retention_times",
            [
                // The ids that de-duplicate events and the members that make distinct users exact are
                // kept for a configured time only (`AggregateRetention`); rows from before count as applied now.
                "ALTER TABLE applied_events ADD COLUMN applied_at timestamptz NOT NULL DEFAULT now()",
                "CREATE INDEX applied_events_by_time ON applied_events (applied_at)",
                "ALTER TABLE feature_users ADD COLUMN added_at timestamptz NOT NULL DEFAULT now()",
                "CREATE INDEX feature_users_by_time ON feature_users (added_at)",
            ]),
        Migration(
            "0005_generation_reads",
            [
                // N6: what each generation read of the log, so that a rebuild from a log that lost events is
                // refused rather than switched to (`LogReadComparison`). Generations from before have none.
                """
                CREATE TABLE generation_reads (
                    generation integer NOT NULL,
                    topic text NOT NULL,
                    partition integer NOT NULL,
                    first_offset bigint NOT NULL,
                    events bigint NOT NULL,
                    PRIMARY KEY (generation, topic, partition)
                )
                """,
                // A generation that already counted events before the tally began has reads that cover only part
                // of its numbers: a rebuild cannot compare with it (and says so). A fresh schema's first
                // generation has counted nothing yet, so its tally is whole.
                "ALTER TABLE generations ADD COLUMN reads_complete boolean NOT NULL DEFAULT true",
                """
                UPDATE generations g SET reads_complete = false
                WHERE EXISTS (SELECT 1 FROM applied_events a WHERE a.generation = g.id)
                    OR EXISTS (SELECT 1 FROM downloads_daily d WHERE d.generation = g.id)
                    OR EXISTS (SELECT 1 FROM features f WHERE f.generation = g.id)
                    OR EXISTS (SELECT 1 FROM city_views c WHERE c.generation = g.id)
                    OR EXISTS (SELECT 1 FROM poll_results p WHERE p.generation = g.id)
                    OR EXISTS (SELECT 1 FROM survey_overall_results o WHERE o.generation = g.id)
                """,
            ]),
        Migration(
            "0006_survey_reasons",
            [
                // N4: the survey's reasons for admins, from `survey.explained` events (no user: admins read the
                // words, not whose they are).
                """
                CREATE TABLE survey_reasons (
                    id bigserial PRIMARY KEY,
                    generation integer NOT NULL,
                    part text NOT NULL CHECK (part IN ('service', 'overall')),
                    service text,
                    points integer NOT NULL,
                    stars integer,
                    why text NOT NULL,
                    explained_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX survey_reasons_by_time ON survey_reasons (generation, explained_at DESC, id DESC)",
                // Reasons kept before they were published are published once by `SurveyReasonBackfill`.
                "ALTER TABLE survey_services ADD COLUMN why_published boolean NOT NULL DEFAULT false",
                "ALTER TABLE survey_overall ADD COLUMN why_published boolean NOT NULL DEFAULT false",
            ]),
        Migration(
            "0007_daily_uses_and_views",
            [
                // N5: feature uses and city views per day, for the dashboard's trends and its tables of a date
                // range. Counts from before this migration have no day: `analytics-aggregator rebuild` fills them
                // in from the log.
                """
                CREATE TABLE feature_uses_daily (
                    generation integer NOT NULL,
                    day date NOT NULL,
                    app text NOT NULL,
                    feature text NOT NULL,
                    uses bigint NOT NULL,
                    PRIMARY KEY (generation, day, app, feature)
                )
                """,
                """
                CREATE TABLE city_views_daily (
                    generation integer NOT NULL,
                    day date NOT NULL,
                    city_id bigint NOT NULL,
                    views bigint NOT NULL,
                    PRIMARY KEY (generation, day, city_id)
                )
                """,
            ]),
        Migration(
            "0008_daily_poll_and_survey",
            [
                // N5: the poll's answers and the survey's submissions per day, so their tables follow the
                // dashboard's date range too. Counts from before have no day until a rebuild recounts them.
                """
                CREATE TABLE poll_results_daily (
                    generation integer NOT NULL,
                    day date NOT NULL,
                    question text NOT NULL,
                    yes bigint NOT NULL,
                    no bigint NOT NULL,
                    PRIMARY KEY (generation, day, question)
                )
                """,
                """
                CREATE TABLE survey_service_daily (
                    generation integer NOT NULL,
                    day date NOT NULL,
                    service text NOT NULL,
                    submissions bigint NOT NULL,
                    points bigint NOT NULL,
                    below_good bigint NOT NULL,
                    PRIMARY KEY (generation, day, service)
                )
                """,
                """
                CREATE TABLE survey_overall_daily (
                    generation integer NOT NULL,
                    day date NOT NULL,
                    stars integer NOT NULL,
                    submissions bigint NOT NULL,
                    PRIMARY KEY (generation, day, stars)
                )
                """,
            ]),
        Migration(
            "0009_account_pseudonyms",
            [
                // U9: the kept telemetry topic names an account by a random pseudonym, deleted with the account.
                """
                CREATE TABLE account_pseudonyms (
                    account text PRIMARY KEY,
                    pseudonym text NOT NULL UNIQUE,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                // A feature's users named by id before get their pseudonym, so an account counts once whichever
                // form its events have.
                """
                INSERT INTO account_pseudonyms (account, pseudonym)
                SELECT a, replace(gen_random_uuid()::text, '-', '')
                FROM (SELECT DISTINCT substr(user_key, 3) AS a FROM feature_users WHERE user_key LIKE 'u:%') AS named
                """,
                """
                UPDATE feature_users f SET user_key = 'p:' || p.pseudonym
                FROM account_pseudonyms p WHERE f.user_key = 'u:' || p.account
                """,
            ]),
    ]
}
