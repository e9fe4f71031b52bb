import PlatformPostgres

/// The warning-detector schema: the latest forecast per city, warnings with their CAP-like fields (A1, A2),
/// users' favourites (from weather-fetcher's events), notification settings and devices (A4), the push
/// queue that is also the delivery log (A5), and weather news (A6).
/// `package`: the harnesses (`ServiceTestSupport`) migrate a test database with them.
package enum WarningDetectorMigrations {
    package static let all: [Migration] = [
        Migration(
            "0001_warnings",
            [
                """
                CREATE TABLE city_forecasts (
                    city_id integer PRIMARY KEY,
                    city jsonb NOT NULL,
                    fetched_at timestamptz NOT NULL,
                    temperature_c double precision NOT NULL,
                    condition text NOT NULL,
                    description text NOT NULL
                )
                """,
                "CREATE SEQUENCE announcement_numbers",
                """
                CREATE TABLE warnings (
                    id uuid PRIMARY KEY,
                    city_id integer NOT NULL,
                    kind text NOT NULL,
                    announcement_number text NOT NULL UNIQUE,
                    location text NOT NULL,
                    region text NOT NULL,
                    latitude double precision NOT NULL,
                    longitude double precision NOT NULL,
                    time_zone text NOT NULL,
                    severity text NOT NULL,
                    status text NOT NULL,
                    status_description text NOT NULL,
                    onset timestamptz NOT NULL,
                    ends timestamptz NOT NULL,
                    state text NOT NULL DEFAULT 'active' CHECK (state IN ('active', 'cancelled')),
                    version integer NOT NULL DEFAULT 1,
                    issued_at timestamptz NOT NULL DEFAULT now(),
                    updated_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                // One live warning per city and kind: a later forecast updates it instead of adding another.
                "CREATE INDEX warnings_active_by_city ON warnings (city_id, kind) WHERE state = 'active'",
                "CREATE INDEX warnings_active_by_position ON warnings (latitude, longitude) WHERE state = 'active'",
            ]),
        Migration(
            "0002_users_devices",
            [
                """
                CREATE TABLE favourites (
                    user_id text NOT NULL,
                    city_id integer NOT NULL,
                    city jsonb NOT NULL,
                    PRIMARY KEY (user_id, city_id)
                )
                """,
                "CREATE INDEX favourites_by_city ON favourites (city_id)",
                // Only what differs from the default (everything on); city_id 0 is the current location.
                """
                CREATE TABLE notification_settings (
                    user_id text NOT NULL,
                    city_id integer NOT NULL,
                    forecasts boolean NOT NULL,
                    warnings boolean NOT NULL,
                    PRIMARY KEY (user_id, city_id)
                )
                """,
                """
                CREATE TABLE devices (
                    token text PRIMARY KEY,
                    user_id text NOT NULL,
                    current_city_id integer,
                    time_zone text,
                    registered_at timestamptz NOT NULL DEFAULT now(),
                    updated_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX devices_by_user ON devices (user_id)",
                "CREATE INDEX devices_by_city ON devices (current_city_id)",
                """
                CREATE TABLE push_deliveries (
                    id uuid PRIMARY KEY,
                    device_token text NOT NULL,
                    user_id text NOT NULL,
                    kind text NOT NULL CHECK (kind IN ('warning', 'daily-forecast')),
                    dedupe_key text NOT NULL,
                    payload jsonb NOT NULL,
                    status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'token-removed')),
                    attempts integer NOT NULL DEFAULT 0,
                    next_attempt_at timestamptz NOT NULL DEFAULT now(),
                    last_status integer,
                    last_error text,
                    apns_id text,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    finished_at timestamptz,
                    UNIQUE (device_token, dedupe_key)
                )
                """,
                "CREATE INDEX push_deliveries_due ON push_deliveries (next_attempt_at) WHERE status = 'pending'",
            ]),
        Migration(
            "0003_news",
            [
                """
                CREATE TABLE news (
                    id uuid PRIMARY KEY,
                    name text NOT NULL,
                    body text NOT NULL,
                    happened_at timestamptz NOT NULL,
                    time_zone text NOT NULL,
                    location text NOT NULL,
                    published_by text NOT NULL,
                    published_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX news_newest_first ON news (happened_at DESC, published_at DESC, id)",
            ]),
        Migration(
            "0004_appointment_reminders",
            [
                // appointment-booker's reminders (B2) travel the same push path as warnings.
                "ALTER TABLE push_deliveries DROP CONSTRAINT push_deliveries_kind_check",
                "ALTER TABLE push_deliveries ADD CONSTRAINT push_deliveries_kind_check CHECK (kind IN ('warning', 'daily-forecast', 'appointment-reminder'))",
            ]),
        Migration(
            "0005_daily_extremes",
            [
                // A5: the daily message quotes the day's highest and lowest temperature from the forecast's hours.
                "ALTER TABLE city_forecasts ADD COLUMN days jsonb NOT NULL DEFAULT '[]'"
            ]),
        Migration(
            "0006_devices_by_zone",
            [
                // A5: the daily run reads only the devices of the zones whose day just began, through an index on
                // the zone each device's day follows: its own, else its current city's, else UTC. Triggers keep
                // it current when a device moves and when its city's forecast (which names the zone) arrives.
                "ALTER TABLE devices ADD COLUMN effective_zone text",
                """
                CREATE FUNCTION devices_effective_zone() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    NEW.effective_zone := COALESCE(
                        NEW.time_zone, (SELECT city->>'timeZone' FROM city_forecasts WHERE city_id = NEW.current_city_id), 'UTC');
                    RETURN NEW;
                END
                $$
                """,
                """
                CREATE TRIGGER devices_effective_zone BEFORE INSERT OR UPDATE OF time_zone, current_city_id ON devices
                FOR EACH ROW EXECUTE FUNCTION devices_effective_zone()
                """,
                """
                CREATE FUNCTION city_forecasts_zone_to_devices() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    UPDATE devices SET effective_zone = NEW.city->>'timeZone'
                    WHERE current_city_id = NEW.city_id AND time_zone IS NULL
                        AND effective_zone IS DISTINCT FROM NEW.city->>'timeZone';
                    RETURN NULL;
                END
                $$
                """,
                """
                CREATE TRIGGER city_forecasts_zone_to_devices AFTER INSERT OR UPDATE OF city ON city_forecasts
                FOR EACH ROW EXECUTE FUNCTION city_forecasts_zone_to_devices()
                """,
                """
                UPDATE devices d SET effective_zone = COALESCE(
                    d.time_zone, (SELECT f.city->>'timeZone' FROM city_forecasts f WHERE f.city_id = d.current_city_id), 'UTC')
                """,
                "ALTER TABLE devices ALTER COLUMN effective_zone SET NOT NULL",
                "CREATE INDEX devices_by_zone ON devices (effective_zone)",
            ]),
        Migration(
            "0007_device_install_ids",
            [
                // A push token moves to another account only with proof that it is the same app install.
                "ALTER TABLE devices ADD COLUMN install_id text"
            ]),
        Migration(
            "0008_push_trace",
            [
                // X4: a delivery's send continues the trace of the event that decided it.
                "ALTER TABLE push_deliveries ADD COLUMN trace_parent text"
            ]),
        Migration(
            "0009_city_zone_lock",
            [
                // A5: a device registered while its city's first forecast is being stored reads no zone (the
                // forecast is not committed) and the forecast's trigger does not see the device (not committed
                // either): the device would keep UTC. Both take the city's transaction lock first
                // (`UserStore.register` before its statement, this trigger before its update), so whichever
                // commits second sees the other. Lock key space 7153, the city id.
                """
                CREATE OR REPLACE FUNCTION city_forecasts_zone_to_devices() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    PERFORM pg_advisory_xact_lock(7153, NEW.city_id);
                    UPDATE devices SET effective_zone = NEW.city->>'timeZone'
                    WHERE current_city_id = NEW.city_id AND time_zone IS NULL
                        AND effective_zone IS DISTINCT FROM NEW.city->>'timeZone';
                    RETURN NULL;
                END
                $$
                """
            ]),
        Migration(
            "0010_push_per_app",
            [
                // U8: each app has its own APNs topic; a device names the app it belongs to, and a delivery goes
                // under that app's topic. Devices from before were the weather app's.
                "ALTER TABLE devices ADD COLUMN app text NOT NULL DEFAULT 'weather' CHECK (app IN ('weather', 'horoscope'))",
                "ALTER TABLE devices ADD COLUMN language text",
                "ALTER TABLE push_deliveries ADD COLUMN app text NOT NULL DEFAULT 'weather' CHECK (app IN ('weather', 'horoscope'))",
            ]),
        Migration(
            "0011_daily_horoscopes",
            [
                // B5: appointment-booker's daily horoscopes travel the same push path, to horoscope-app devices.
                "ALTER TABLE push_deliveries DROP CONSTRAINT push_deliveries_kind_check",
                """
                ALTER TABLE push_deliveries ADD CONSTRAINT push_deliveries_kind_check
                    CHECK (kind IN ('warning', 'daily-forecast', 'appointment-reminder', 'daily-horoscope'))
                """,
            ]),
    ]
}
