import PlatformPostgres

/// The weather-fetcher schema: the city catalogue (W1, W2), each city's latest provider data and refresh
/// bookkeeping (W3-W6), recents and favourites per user (W7, W8), and the active warnings it learns from
/// the warnings topic for the map and share texts (W9, W10).
/// `package`: the harnesses (`ServiceTestSupport`) migrate a test database with them.
package enum WeatherFetcherMigrations {
    package static let all: [Migration] = [
        Migration(
            "0001_cities",
            [
                // search_key is compared byte-wise (COLLATE "C"), so one b-tree serves both `LIKE 'ber%'` and
                // the alphabetical order of the results: a one-letter prefix reads only the rows of one page.
                """
                CREATE TABLE cities (
                    id integer PRIMARY KEY,
                    name text NOT NULL,
                    ascii_name text NOT NULL,
                    search_key text COLLATE "C" NOT NULL,
                    country_code text NOT NULL,
                    country text NOT NULL,
                    region text NOT NULL,
                    latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
                    longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
                    time_zone text NOT NULL,
                    population integer NOT NULL
                )
                """,
                "CREATE INDEX cities_by_search_key ON cities (search_key, population DESC, id)",
                // Nearest city: a latitude band is searched first (see CityStore.nearest).
                "CREATE INDEX cities_by_latitude ON cities (latitude)",
                "CREATE INDEX cities_by_population ON cities (population DESC)",
                """
                CREATE TABLE catalogue_imports (
                    checksum text PRIMARY KEY,
                    city_count integer NOT NULL,
                    imported_at timestamptz NOT NULL DEFAULT now()
                )
                """,
            ]),
        Migration(
            "0002_weather",
            [
                """
                CREATE TABLE city_weather (
                    city_id integer PRIMARY KEY REFERENCES cities ON DELETE CASCADE,
                    provider text NOT NULL,
                    fetched_at timestamptz NOT NULL,
                    temperature_c double precision NOT NULL,
                    report jsonb NOT NULL
                )
                """,
                // One row per city ever refreshed: when it was last tried, whether that failed, and a claim so
                // that several instances never refresh the same city at once.
                """
                CREATE TABLE refresh_state (
                    city_id integer PRIMARY KEY REFERENCES cities ON DELETE CASCADE,
                    claimed_until timestamptz NOT NULL DEFAULT '-infinity',
                    attempted_at timestamptz,
                    failed_at timestamptz,
                    last_error text,
                    consecutive_failures integer NOT NULL DEFAULT 0
                )
                """,
            ]),
        Migration(
            "0003_user_cities",
            [
                "CREATE SEQUENCE city_view_sequence",
                """
                CREATE TABLE recent_cities (
                    user_id text NOT NULL,
                    city_id integer NOT NULL REFERENCES cities ON DELETE CASCADE,
                    viewed_at timestamptz NOT NULL DEFAULT now(),
                    view_order bigint NOT NULL DEFAULT nextval('city_view_sequence'),
                    PRIMARY KEY (user_id, city_id)
                )
                """,
                "CREATE INDEX recent_cities_by_user ON recent_cities (user_id, view_order DESC)",
                "CREATE INDEX recent_cities_by_time ON recent_cities (viewed_at, city_id)",
                """
                CREATE TABLE favourite_cities (
                    user_id text NOT NULL,
                    city_id integer NOT NULL REFERENCES cities ON DELETE CASCADE,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (user_id, city_id)
                )
                """,
                "CREATE INDEX favourite_cities_by_city ON favourite_cities (city_id)",
            ]),
        Migration(
            "0004_city_warnings",
            [
                // No foreign key to cities: a warning event may arrive before the catalogue is imported.
                """
                CREATE TABLE city_warnings (
                    warning_id uuid PRIMARY KEY,
                    city_id integer NOT NULL,
                    announcement_number text NOT NULL,
                    kind text NOT NULL,
                    severity text NOT NULL,
                    status text NOT NULL,
                    status_description text NOT NULL,
                    onset timestamptz NOT NULL,
                    ends timestamptz NOT NULL,
                    event_occurred_at timestamptz NOT NULL
                )
                """,
                "CREATE INDEX city_warnings_by_city ON city_warnings (city_id, ends)",
            ]),
        Migration(
            "0005_report_dates_as_numbers",
            [
                // Stored reports switched from ISO 8601 dates to seconds since 1970; older rows are dropped
                // and fetched again by the next refresh.
                "DELETE FROM city_weather"
            ]),
        Migration(
            "0006_city_alternate_names",
            [
                // W1: a city is found by its other names too (München, Cologne). Keys are folded like
                // cities.search_key and compared byte-wise, so a prefix reads one range of this index.
                """
                CREATE TABLE city_alternate_names (
                    search_key text COLLATE "C" NOT NULL,
                    city_id integer NOT NULL REFERENCES cities ON DELETE CASCADE,
                    name text NOT NULL,
                    PRIMARY KEY (search_key, city_id)
                )
                """,
                "CREATE INDEX city_alternate_names_by_city ON city_alternate_names (city_id)",
                // The next start imports the catalogue file again, with its alternate names.
                "DELETE FROM catalogue_imports",
            ]),
        Migration(
            "0007_contains_search_trigrams",
            [
                // X3: a `contains` search (`%ber%`) reads these trigram indexes instead of every name. pg_trgm is
                // installed into this schema by the stack script or deploy/postgres/init.sh (a role that may not
                // create extensions finds it there); a superuser's migration (the tests') creates it itself.
                "CREATE EXTENSION IF NOT EXISTS pg_trgm",
                CitySearchIndexes.create,
            ]),
        Migration(
            "0008_shared_texts",
            [
                // W10: a shared text's public page. The same text of a city shared again keeps its link.
                """
                CREATE TABLE shared_texts (
                    id text PRIMARY KEY,
                    city_id bigint NOT NULL,
                    kind text NOT NULL CHECK (kind IN ('home', 'forecast', 'warning')),
                    text text NOT NULL,
                    shared_at timestamptz NOT NULL DEFAULT now(),
                    UNIQUE (city_id, kind, text)
                )
                """,
                "CREATE INDEX shared_texts_by_time ON shared_texts (shared_at)",
            ]),
        Migration(
            "0009_report_as_text",
            [
                // W6: a refresh stores every city's report every cadence, and as jsonb Postgres parsed, sorted and
                // pglz-compressed each ~40 KB document: one backend's CPU bounded the refresh. Nothing queries
                // into a report (it is read whole by the service), so it is kept as the text the service writes,
                // stored out of line without compression.
                "ALTER TABLE city_weather ALTER COLUMN report TYPE text USING report::text",
                "ALTER TABLE city_weather ALTER COLUMN report SET STORAGE EXTERNAL",
            ]),
    ]
}
