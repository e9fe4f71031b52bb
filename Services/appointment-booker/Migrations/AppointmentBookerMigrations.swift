import PlatformPostgres

/// The appointment-booker schema (B1-B3): what auth's events said about accounts, partners with their
/// availability and ads, and bookings, which the database itself keeps from overlapping per partner.
/// `package`: the harnesses (`ServiceTestSupport`) migrate a test database with them.
package enum AppointmentBookerMigrations {
    package static let all: [Migration] = [
        Migration(
            "0001_appointments",
            [
                // Equality on uuid inside a GiST exclusion constraint; the stack's setup creates it as the superuser.
                "CREATE EXTENSION IF NOT EXISTS btree_gist",
                """
                CREATE TABLE accounts (
                    user_id text PRIMARY KEY,
                    role text NOT NULL DEFAULT 'user',
                    role_changed_at timestamptz,
                    banned boolean NOT NULL DEFAULT false,
                    banned_changed_at timestamptz
                )
                """,
                """
                CREATE TABLE account_entitlements (
                    user_id text NOT NULL,
                    entitlement text NOT NULL,
                    granted boolean NOT NULL,
                    changed_at timestamptz NOT NULL,
                    PRIMARY KEY (user_id, entitlement)
                )
                """,
                """
                CREATE TABLE partners (
                    id uuid PRIMARY KEY,
                    name text NOT NULL,
                    description text NOT NULL,
                    contact text NOT NULL,
                    photo_url text,
                    languages text[] NOT NULL,
                    time_zone text NOT NULL,
                    approved boolean NOT NULL DEFAULT false,
                    fee_status text NOT NULL DEFAULT 'unpaid' CHECK (fee_status IN ('unpaid', 'paid')),
                    availability jsonb NOT NULL DEFAULT '{"weekly": [], "exceptions": []}',
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                """
                CREATE TABLE ads (
                    id uuid PRIMARY KEY,
                    partner_id uuid NOT NULL REFERENCES partners (id),
                    starts_at timestamptz NOT NULL,
                    ends_at timestamptz NOT NULL,
                    payment_status text NOT NULL DEFAULT 'unpaid' CHECK (payment_status IN ('unpaid', 'paid')),
                    created_at timestamptz NOT NULL DEFAULT now(),
                    CHECK (starts_at < ends_at)
                )
                """,
                "CREATE INDEX ads_by_partner ON ads (partner_id, starts_at)",
                """
                CREATE TABLE bookings (
                    id uuid PRIMARY KEY,
                    partner_id uuid NOT NULL REFERENCES partners (id),
                    user_id text NOT NULL,
                    starts_at timestamptz NOT NULL,
                    ends_at timestamptz NOT NULL,
                    status text NOT NULL DEFAULT 'booked' CHECK (status IN ('booked', 'cancelled')),
                    cancelled_by text,
                    cancel_reason text,
                    idempotency_key text,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    updated_at timestamptz NOT NULL DEFAULT now(),
                    reminder_queued_at timestamptz,
                    CHECK (starts_at < ends_at),
                    -- B2: two live bookings of one partner can never overlap, whatever the requests race.
                    CONSTRAINT bookings_no_overlap EXCLUDE USING gist (partner_id WITH =, tstzrange(starts_at, ends_at) WITH &&)
                        WHERE (status = 'booked')
                )
                """,
                "CREATE UNIQUE INDEX bookings_idempotency ON bookings (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL",
                "CREATE INDEX bookings_by_user ON bookings (user_id, starts_at)",
                "CREATE INDEX bookings_by_partner ON bookings (partner_id, starts_at)",
                "CREATE INDEX bookings_reminders_due ON bookings (starts_at) WHERE status = 'booked' AND reminder_queued_at IS NULL",
            ]),
        Migration(
            "0002_readings",
            [
                // B4: readings as they were made (both languages), shareable by a short id; a user's fortune stick is
                // one per day (the unique index), and so is any personal reading with the same inputs.
                """
                CREATE TABLE readings (
                    id uuid PRIMARY KEY,
                    share_id text NOT NULL UNIQUE,
                    user_id text NOT NULL,
                    kind text NOT NULL,
                    inputs text NOT NULL,
                    local_date date NOT NULL,
                    reading jsonb NOT NULL,
                    content_version text NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE UNIQUE INDEX readings_once_a_day ON readings (user_id, kind, inputs, local_date)",
                "CREATE INDEX readings_history ON readings (user_id, created_at DESC, id)",
                """
                CREATE TABLE prayers (
                    id uuid PRIMARY KEY,
                    title_en text NOT NULL,
                    title_th text NOT NULL,
                    text_en text NOT NULL,
                    text_th text NOT NULL,
                    media_url text,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                // Places of worship near a bad reading, from places-importer's place.upserted events.
                """
                CREATE TABLE worship_places (
                    place_id uuid PRIMARY KEY,
                    name text NOT NULL,
                    latitude double precision NOT NULL,
                    longitude double precision NOT NULL,
                    address text
                )
                """,
                "CREATE INDEX worship_places_latitude ON worship_places (latitude)",
                // Two chants to start the prayer book with (written for the project); admins add the rest.
                """
                INSERT INTO prayers (id, title_en, title_th, text_en, text_th, created_at) VALUES
                (gen_random_uuid(), 'Morning calm', 'บทสวดยามเช้า',
                 'May this day begin in peace. May my words be kind, my work be honest, and my heart stay open.',
                 'ขอให้วันนี้เริ่มต้นด้วยความสงบ ขอให้คำพูดของข้าพเจ้าอ่อนโยน งานสุจริต และใจเปิดกว้าง', now() - interval '1 second'),
                (gen_random_uuid(), 'Evening thanks', 'บทขอบคุณยามค่ำ',
                 'For what was given today, thank you. May those I love rest safely, and may tomorrow find us well.',
                 'ขอบคุณสำหรับสิ่งที่ได้รับในวันนี้ ขอให้คนที่รักพักผ่อนอย่างปลอดภัย และพรุ่งนี้พบกันด้วยดี', now())
                """,
            ]),
        Migration(
            "0003_daily_horoscopes",
            [
                // B5: one row per user who set the daily horoscope notification; `last_sent_on` is the local day
                // whose push was last queued, so each local day gets one, across restarts and replicas.
                """
                CREATE TABLE daily_horoscopes (
                    user_id text PRIMARY KEY,
                    enabled boolean NOT NULL,
                    sign text,
                    local_time time,
                    time_zone text,
                    last_sent_on date,
                    updated_at timestamptz NOT NULL DEFAULT now(),
                    CHECK (NOT enabled OR (sign IS NOT NULL AND local_time IS NOT NULL AND time_zone IS NOT NULL))
                )
                """,
                "CREATE INDEX daily_horoscopes_enabled ON daily_horoscopes (user_id) WHERE enabled",
            ]),
        Migration(
            "0004_booker_contact",
            [
                // U6: the name and contact a user chose to share with the fortune teller when booking; erased
                // with the account.
                "ALTER TABLE bookings ADD COLUMN booker_name text, ADD COLUMN booker_contact text"
            ]),
        Migration(
            "0005_worship_requests",
            [
                // B4: the cells where no place of worship was known and places-importer was asked for them; a
                // request unanswered for an hour is asked again, an answer of none holds for a week.
                """
                CREATE TABLE worship_requests (
                    cell text PRIMARY KEY,
                    requested_at timestamptz NOT NULL,
                    answered_at timestamptz
                )
                """,
                // The hour's count of new requests (WORSHIP_REQUESTS_PER_HOUR) reads this.
                "CREATE INDEX worship_requests_by_time ON worship_requests (requested_at)",
            ]),
        Migration(
            "0006_partner_payments",
            [
                // B6: partners pay their fee and their ads through the payment provider; its signed notifications
                // are applied once each, a refund ends what it paid. Who marked a payment (the provider or an
                // admin's override) is kept beside it.
                "ALTER TABLE partners DROP CONSTRAINT IF EXISTS partners_fee_status_check",
                "ALTER TABLE partners ADD CONSTRAINT partners_fee_status_check CHECK (fee_status IN ('unpaid', 'paid', 'refunded'))",
                "ALTER TABLE partners ADD COLUMN fee_marked_by text CHECK (fee_marked_by IN ('provider', 'admin'))",
                "ALTER TABLE ads DROP CONSTRAINT IF EXISTS ads_payment_status_check",
                "ALTER TABLE ads ADD CONSTRAINT ads_payment_status_check CHECK (payment_status IN ('unpaid', 'paid', 'refunded'))",
                "ALTER TABLE ads ADD COLUMN marked_by text CHECK (marked_by IN ('provider', 'admin'))",
                """
                CREATE TABLE partner_payments (
                    payment_id text NOT NULL,
                    status text NOT NULL CHECK (status IN ('paid', 'refunded')),
                    reference text NOT NULL,
                    amount_cents bigint NOT NULL,
                    received_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (payment_id, status)
                )
                """,
            ]),
        Migration(
            "0007_partner_applications",
            [
                // B6: fortune tellers apply themselves, accepting a version of the terms; an admin approves or
                // rejects. Erased with the account.
                """
                CREATE TABLE partner_applications (
                    user_id text PRIMARY KEY,
                    name text NOT NULL,
                    description text NOT NULL,
                    contact text NOT NULL,
                    photo_url text,
                    languages text[] NOT NULL,
                    time_zone text NOT NULL,
                    terms_version text NOT NULL,
                    terms_accepted_at timestamptz NOT NULL,
                    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
                    reason text,
                    applied_at timestamptz NOT NULL DEFAULT now(),
                    decided_at timestamptz,
                    decided_by text
                )
                """,
                "CREATE INDEX partner_applications_by_status ON partner_applications (status, applied_at)",
            ]),
        Migration(
            "0008_worship_asks_per_network",
            [
                // B4: who spent the places budget, by client network only (no account), for the last hour.
                "CREATE TABLE worship_asks (network text NOT NULL, asked_at timestamptz NOT NULL DEFAULT now())",
                "CREATE INDEX worship_asks_by_network ON worship_asks (network, asked_at)",
            ]),
    ]
}
