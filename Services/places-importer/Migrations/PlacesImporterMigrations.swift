import PlatformPostgres

/// The places-importer schema: places with PostGIS geography points (P2), the provider ids each came from
/// (P1), users' ratings, saves and pin colours (P2, P3), and the import areas with their schedule.
/// `package`: the harnesses (`ServiceTestSupport`) migrate a test database with them.
package enum PlacesImporterMigrations {
    package static let all: [Migration] = [
        Migration(
            "0001_places",
            [
                // Installs into the service's schema (first on its search_path). In the stack and in
                // production the database owner creates it beforehand (deploy/postgres/init.sh), which makes
                // this a no-op for the unprivileged service role.
                "CREATE EXTENSION IF NOT EXISTS postgis",
                """
                CREATE TABLE places (
                    id uuid PRIMARY KEY,
                    name text NOT NULL,
                    match_name text NOT NULL,
                    category text NOT NULL CHECK (category IN ('coworking', 'cafe', 'library', 'bar', 'other')),
                    location geography(Point, 4326) NOT NULL,
                    address text,
                    opening_hours text,
                    phone text,
                    website text,
                    internet_access text,
                    added_by text,
                    primary_provider text NOT NULL,
                    primary_provider_id text NOT NULL,
                    created_at timestamptz NOT NULL DEFAULT now(),
                    updated_at timestamptz NOT NULL DEFAULT now()
                )
                """,
                "CREATE INDEX places_location ON places USING gist (location)",
                "CREATE INDEX places_by_match_name ON places (match_name)",
                """
                CREATE TABLE place_sources (
                    provider text NOT NULL,
                    provider_id text NOT NULL,
                    place_id uuid NOT NULL REFERENCES places ON DELETE CASCADE,
                    fingerprint text NOT NULL,
                    PRIMARY KEY (provider, provider_id)
                )
                """,
                "CREATE INDEX place_sources_by_place ON place_sources (place_id)",
            ]),
        Migration(
            "0002_user_places",
            [
                """
                CREATE TABLE place_ratings (
                    place_id uuid NOT NULL REFERENCES places ON DELETE CASCADE,
                    user_id text NOT NULL,
                    noise smallint NOT NULL CHECK (noise BETWEEN 0 AND 5),
                    outlets smallint NOT NULL CHECK (outlets BETWEEN 0 AND 5),
                    wifi smallint NOT NULL CHECK (wifi BETWEEN 0 AND 5),
                    cost smallint NOT NULL CHECK (cost BETWEEN 0 AND 5),
                    seating smallint NOT NULL CHECK (seating BETWEEN 0 AND 5),
                    menu_options text[] NOT NULL,
                    business_type text NOT NULL,
                    notes text NOT NULL DEFAULT '',
                    rated_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (place_id, user_id)
                )
                """,
                "CREATE INDEX place_ratings_by_user ON place_ratings (user_id)",
                """
                CREATE TABLE saved_places (
                    user_id text NOT NULL,
                    place_id uuid NOT NULL REFERENCES places ON DELETE CASCADE,
                    saved_at timestamptz NOT NULL DEFAULT now(),
                    PRIMARY KEY (user_id, place_id)
                )
                """,
                """
                CREATE TABLE pin_colours (
                    user_id text NOT NULL,
                    place_id uuid NOT NULL REFERENCES places ON DELETE CASCADE,
                    colour text NOT NULL,
                    PRIMARY KEY (user_id, place_id)
                )
                """,
            ]),
        Migration(
            "0003_import_areas",
            [
                """
                CREATE TABLE import_areas (
                    id uuid PRIMARY KEY,
                    name text NOT NULL UNIQUE,
                    south double precision NOT NULL,
                    west double precision NOT NULL,
                    north double precision NOT NULL,
                    east double precision NOT NULL,
                    next_run_at timestamptz NOT NULL DEFAULT now(),
                    claimed_until timestamptz NOT NULL DEFAULT '-infinity',
                    last_started_at timestamptz,
                    last_finished_at timestamptz,
                    last_status text,
                    last_error text,
                    places_created integer NOT NULL DEFAULT 0,
                    places_changed integer NOT NULL DEFAULT 0,
                    places_unchanged integer NOT NULL DEFAULT 0,
                    tiles_done integer NOT NULL DEFAULT 0,
                    tiles_total integer NOT NULL DEFAULT 0,
                    runs integer NOT NULL DEFAULT 0
                )
                """
            ]),
        Migration(
            "0004_place_change_feed",
            [
                // The in-memory nearby index reads changes by writing transaction (see PlaceChangeFeed).
                "ALTER TABLE places ADD COLUMN changed_xid xid8 NOT NULL DEFAULT pg_current_xact_id()",
                "CREATE INDEX places_by_changed_xid ON places (changed_xid)",
                """
                CREATE FUNCTION places_mark_changed() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    NEW.changed_xid := pg_current_xact_id();
                    RETURN NEW;
                END
                $$
                """,
                "CREATE TRIGGER places_mark_changed BEFORE UPDATE ON places FOR EACH ROW EXECUTE FUNCTION places_mark_changed()",
                // A user's pins include the places they added.
                "CREATE INDEX places_by_adder ON places (added_by) WHERE added_by IS NOT NULL",
            ]),
        Migration(
            "0005_places_of_worship",
            [
                // The horoscope app's places to pray (B4): import areas can ask for places of worship too.
                "ALTER TABLE import_areas ADD COLUMN places_of_worship boolean NOT NULL DEFAULT false",
                "ALTER TABLE places DROP CONSTRAINT places_category_check",
                "ALTER TABLE places ADD CONSTRAINT places_category_check CHECK (category IN ('coworking', 'cafe', 'library', 'bar', 'other', 'worship'))",
            ]),
        Migration(
            "0006_on_demand_tiles_and_closed_places",
            [
                // P1: a place that vanished from every provider at its area's last import is closed, not deleted
                // (its ratings stay; it reopens when a provider lists it again).
                "ALTER TABLE places ADD COLUMN closed_at timestamptz",
                // P1: the tile around a user in an area never imported is imported on demand, as an area of its own.
                "ALTER TABLE import_areas ADD COLUMN on_demand boolean NOT NULL DEFAULT false",
                "ALTER TABLE import_areas ADD COLUMN requested_by text",
                "ALTER TABLE import_areas ADD COLUMN created_at timestamptz NOT NULL DEFAULT now()",
                "CREATE INDEX import_areas_on_demand_by_time ON import_areas (created_at) WHERE on_demand",
            ]),
        Migration(
            "0007_on_demand_tiles_expire",
            [
                // X3: an on-demand tile nobody asked about for PLACES_ON_DEMAND_TILE_TTL_HOURS stops being
                // re-imported (its area goes; its places stay, and a new request there queues the tile again).
                "ALTER TABLE import_areas ADD COLUMN last_requested_at timestamptz NOT NULL DEFAULT now()",
                "CREATE INDEX import_areas_on_demand_by_request ON import_areas (last_requested_at) WHERE on_demand",
            ]),
        Migration(
            "0008_member_places_reviewed",
            [
                // X3: a member's place is shown to others only once an admin approved it. Places already added
                // were public before this; they stay approved.
                "ALTER TABLE places ADD COLUMN review text NOT NULL DEFAULT 'approved' CHECK (review IN ('pending', 'approved', 'rejected'))",
                "CREATE INDEX places_awaiting_review ON places (created_at, id) WHERE review = 'pending'",
            ]),
        Migration(
            "0009_worship_requests",
            [
                // B4: appointment-booker's requests for places of worship around a point, answered when the area
                // imported for them finishes a run.
                """
                CREATE TABLE worship_requests (
                    request_id text PRIMARY KEY,
                    area_name text NOT NULL,
                    latitude double precision NOT NULL,
                    longitude double precision NOT NULL,
                    radius_meters double precision NOT NULL,
                    requested_at timestamptz NOT NULL DEFAULT now(),
                    answered_at timestamptz
                )
                """,
                "CREATE INDEX worship_requests_pending ON worship_requests (area_name) WHERE answered_at IS NULL",
            ]),
        Migration(
            "0010_worship_areas_bounded",
            [
                // B4, X3: a request near a pole once became a strip round the globe (thousands of provider tiles).
                // Such areas stop being imported; their requests go unanswered, so appointment-booker asks again
                // within the hour and the area comes back within the import area limits (`WorshipSearchBox`).
                """
                DELETE FROM import_areas
                WHERE on_demand AND name LIKE 'worship %' AND (east - west > 5 OR north - south > 5)
                """
            ]),
    ]
}
