import PlatformPostgres

/// The auth schema: accounts, sessions (refresh tokens), failed attempts, password resets, and the mail queue.
/// `package`: the harnesses (`ServiceTestSupport`) migrate a test database with them.
package enum AuthMigrations {
    package static let all: [Migration] = [
        Migration(
            "0001_accounts",
            [
                """
                CREATE TABLE accounts (
                    id uuid PRIMARY KEY,
                    email text UNIQUE CHECK (email = lower(email)),
                    kind text NOT NULL CHECK (kind IN ('dashboard', 'survey', 'horoscope')),
                    role text NOT NULL CHECK (role IN ('guest', 'user', 'partner', 'admin')),
                    display_name text,
                    password_hash text,
                    pin_hash text,
                    entitlements text[] NOT NULL DEFAULT '{}',
                    banned boolean NOT NULL DEFAULT false,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                """
                CREATE TABLE refresh_tokens (
                    token_hash text PRIMARY KEY,
                    account_id uuid NOT NULL REFERENCES accounts ON DELETE CASCADE,
                    family uuid NOT NULL,
                    expires_at timestamptz NOT NULL,
                    revoked_at timestamptz,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX refresh_tokens_family ON refresh_tokens (family)",
                "CREATE INDEX refresh_tokens_account ON refresh_tokens (account_id)",
                """
                CREATE TABLE failed_attempts (
                    kind text NOT NULL,
                    subject text NOT NULL,
                    at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX failed_attempts_lookup ON failed_attempts (kind, subject, at)",
                """
                CREATE TABLE password_resets (
                    token_hash text PRIMARY KEY,
                    account_id uuid NOT NULL REFERENCES accounts ON DELETE CASCADE,
                    expires_at timestamptz NOT NULL,
                    used_at timestamptz,
                    created_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                """
                CREATE TABLE outgoing_mail (
                    id bigserial PRIMARY KEY,
                    recipient text NOT NULL,
                    subject text NOT NULL,
                    body text NOT NULL,
                    attempts int NOT NULL DEFAULT 0,
                    next_attempt_at timestamptz NOT NULL DEFAULT now(),
                    sent_at timestamptz,
                    last_error text
                )
                """,
                "CREATE INDEX outgoing_mail_due ON outgoing_mail (next_attempt_at) WHERE sent_at IS NULL",
            ]),
        Migration(
            "0002_payments",
            [
                """
                CREATE TABLE payments (
                    payment_id text PRIMARY KEY,
                    account_id uuid NOT NULL REFERENCES accounts ON DELETE CASCADE,
                    entitlement text NOT NULL,
                    status text NOT NULL CHECK (status IN ('paid', 'refunded')),
                    amount_cents bigint NOT NULL CHECK (amount_cents >= 0),
                    received_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX payments_account ON payments (account_id)",
                "CREATE INDEX accounts_email_prefix ON accounts (email text_pattern_ops)",
            ]),
        Migration(
            "0003_external_identities",
            ["ALTER TABLE accounts ADD COLUMN external_subject text UNIQUE"]),
        Migration(
            "0004_pin_resets",
            [
                """
                CREATE TABLE pin_resets (
                    code_hash text PRIMARY KEY,
                    account_id uuid NOT NULL REFERENCES accounts ON DELETE CASCADE,
                    expires_at timestamptz NOT NULL,
                    used_at timestamptz
                )
                """,
                "CREATE INDEX pin_resets_account ON pin_resets (account_id)",
            ]),
        Migration(
            "0005_refunds_are_events",
            [
                // U6: a refund is its own notification about the same payment id, recorded once like the payment.
                "ALTER TABLE payments DROP CONSTRAINT payments_pkey",
                "ALTER TABLE payments ADD PRIMARY KEY (payment_id, status)",
            ]),
        Migration(
            "0006_attempt_reservations",
            [
                // U7: a try is recorded before it is evaluated and given back by id when it did not fail.
                "ALTER TABLE failed_attempts ADD COLUMN id bigserial PRIMARY KEY"
            ]),
        Migration(
            "0007_used_oidc_nonces",
            [
                // U5: an ID token's nonce logs in once; rows are kept until the token would have expired.
                "CREATE TABLE used_oidc_nonces (nonce_hash text PRIMARY KEY, expires_at timestamptz NOT NULL)"
            ]),
        Migration(
            "0008_sent_mail_bodies_dropped",
            [
                // Mails sent (or given up) before the queue dropped bodies keep no links or codes either.
                "UPDATE outgoing_mail SET body = '' WHERE sent_at IS NOT NULL OR attempts >= 20"
            ]),
        Migration(
            "0009_email_verification",
            [
                // A survey account earns its coupon only once it proved it reads mail at its address.
                "ALTER TABLE accounts ADD COLUMN email_verified_at timestamptz",
                """
                CREATE TABLE email_verifications (
                    code_hash text PRIMARY KEY,
                    account_id uuid NOT NULL REFERENCES accounts ON DELETE CASCADE,
                    expires_at timestamptz NOT NULL,
                    used_at timestamptz
                )
                """,
                "CREATE INDEX email_verifications_account ON email_verifications (account_id)",
            ]),
        Migration(
            "0010_refresh_tokens_revoked_reason",
            [
                // U8: a token replaced by its successor (`rotated`) presented again is a theft; one whose session
                // ended (logout, new password, ban, a theft found) is merely invalid. Older rows count as rotated.
                "ALTER TABLE refresh_tokens ADD COLUMN revoked_reason text CHECK (revoked_reason IN ('rotated', 'ended'))"
            ]),
        Migration(
            "0011_install_accounts",
            [
                // U8: an app install gets an account of its own without a form (the weather and places apps
                // have no sign-in; the horoscope app's guest). The install id is the app's, not a secret.
                "ALTER TABLE accounts DROP CONSTRAINT accounts_kind_check",
                "ALTER TABLE accounts ADD CONSTRAINT accounts_kind_check CHECK (kind IN ('dashboard', 'survey', 'horoscope', 'install'))",
                "ALTER TABLE accounts ADD COLUMN app text CHECK (app IN ('weather', 'places', 'horoscope'))",
                "ALTER TABLE accounts ADD COLUMN install_id text",
            ]),
        Migration(
            "0012_profiles",
            [
                // U9: what a signed-in user reads and edits of their own account.
                "ALTER TABLE accounts ADD COLUMN language text",
                "ALTER TABLE accounts ADD COLUMN time_zone text",
                """
                ALTER TABLE accounts ADD COLUMN zodiac_sign text CHECK (zodiac_sign IN ('aries', 'taurus', 'gemini', 'cancer', 'leo',
                    'virgo', 'libra', 'scorpio', 'sagittarius', 'capricorn', 'aquarius', 'pisces'))
                """,
            ]),
        Migration(
            "0013_failed_attempts_by_subject",
            [
                // U9: an ended account's counted tries are found by its id, in whatever case the subject spells it.
                "CREATE INDEX failed_attempts_by_lower_subject ON failed_attempts (lower(subject) text_pattern_ops)"
            ]),
        Migration(
            "0014_install_merges",
            [
                // U6: a payment notification that names an install merged away is applied to the account it merged into
                // (`PaymentOwner`). A row goes with that account; one install merged into another follows it along.
                """
                CREATE TABLE install_merges (
                    install_id uuid PRIMARY KEY,
                    into_id uuid NOT NULL REFERENCES accounts ON DELETE CASCADE,
                    merged_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX install_merges_into ON install_merges (into_id)",
            ]),
        Migration(
            "0015_sent_mail_retention",
            [
                // U11: sent mail found by when it went, to purge it after `SENT_MAIL_RETENTION_DAYS` (`MailSender`); given-up
                // mail is found by `outgoing_mail_due`.
                "CREATE INDEX outgoing_mail_sent ON outgoing_mail (sent_at) WHERE sent_at IS NOT NULL"
            ]),
        Migration(
            "0016_install_attestation",
            [
                // Install accounts earn trust (`InstallTrust`): when the install proved itself the real app on a real device.
                "ALTER TABLE accounts ADD COLUMN attested_at timestamptz",
                // One attestation token attests one account: its fingerprint is kept while the token could attest again.
                "CREATE TABLE used_attestations (fingerprint text PRIMARY KEY, usable_until timestamptz NOT NULL)",
            ]),
    ]
}
