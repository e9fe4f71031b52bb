-- Generated from the registry of the services (ServiceIdentity.all) by `platformctl render-services`; do not edit.
-- Run by a superuser on the database `platform` with psql 15 or later, any number of times. One role per service,
-- owning one schema and granted nothing else (X1); the extensions a schema needs, in that schema. A role's password
-- is set from <SCHEMA>_DB_PASSWORD when the environment has it; with `-v require_passwords=1` a missing one stops it.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;

-- weather-fetcher
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'weather_fetcher') THEN CREATE ROLE weather_fetcher LOGIN; END IF;
END $$;
CREATE SCHEMA IF NOT EXISTS weather_fetcher AUTHORIZATION weather_fetcher;
REVOKE ALL ON SCHEMA public FROM weather_fetcher;
GRANT CONNECT ON DATABASE platform TO weather_fetcher;
CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA weather_fetcher;
\unset password
\getenv password WEATHER_FETCHER_DB_PASSWORD
\if :{?password}
ALTER ROLE weather_fetcher PASSWORD :'password';
\elif :{?require_passwords}
DO $$ BEGIN RAISE EXCEPTION 'WEATHER_FETCHER_DB_PASSWORD must be set'; END $$;
\endif

-- warning-detector
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'warning_detector') THEN CREATE ROLE warning_detector LOGIN; END IF;
END $$;
CREATE SCHEMA IF NOT EXISTS warning_detector AUTHORIZATION warning_detector;
REVOKE ALL ON SCHEMA public FROM warning_detector;
GRANT CONNECT ON DATABASE platform TO warning_detector;
\unset password
\getenv password WARNING_DETECTOR_DB_PASSWORD
\if :{?password}
ALTER ROLE warning_detector PASSWORD :'password';
\elif :{?require_passwords}
DO $$ BEGIN RAISE EXCEPTION 'WARNING_DETECTOR_DB_PASSWORD must be set'; END $$;
\endif

-- places-importer
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'places_importer') THEN CREATE ROLE places_importer LOGIN; END IF;
END $$;
CREATE SCHEMA IF NOT EXISTS places_importer AUTHORIZATION places_importer;
REVOKE ALL ON SCHEMA public FROM places_importer;
GRANT CONNECT ON DATABASE platform TO places_importer;
CREATE EXTENSION IF NOT EXISTS postgis SCHEMA places_importer;
\unset password
\getenv password PLACES_IMPORTER_DB_PASSWORD
\if :{?password}
ALTER ROLE places_importer PASSWORD :'password';
\elif :{?require_passwords}
DO $$ BEGIN RAISE EXCEPTION 'PLACES_IMPORTER_DB_PASSWORD must be set'; END $$;
\endif

-- auth
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'auth') THEN CREATE ROLE auth LOGIN; END IF;
END $$;
CREATE SCHEMA IF NOT EXISTS auth AUTHORIZATION auth;
REVOKE ALL ON SCHEMA public FROM auth;
GRANT CONNECT ON DATABASE platform TO auth;
\unset password
\getenv password AUTH_DB_PASSWORD
\if :{?password}
ALTER ROLE auth PASSWORD :'password';
\elif :{?require_passwords}
DO $$ BEGIN RAISE EXCEPTION 'AUTH_DB_PASSWORD must be set'; END $$;
\endif

-- analytics-aggregator
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'analytics_aggregator') THEN CREATE ROLE analytics_aggregator LOGIN; END IF;
END $$;
CREATE SCHEMA IF NOT EXISTS analytics_aggregator AUTHORIZATION analytics_aggregator;
REVOKE ALL ON SCHEMA public FROM analytics_aggregator;
GRANT CONNECT ON DATABASE platform TO analytics_aggregator;
\unset password
\getenv password ANALYTICS_AGGREGATOR_DB_PASSWORD
\if :{?password}
ALTER ROLE analytics_aggregator PASSWORD :'password';
\elif :{?require_passwords}
DO $$ BEGIN RAISE EXCEPTION 'ANALYTICS_AGGREGATOR_DB_PASSWORD must be set'; END $$;
\endif

-- appointment-booker
DO $$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'appointment_booker') THEN CREATE ROLE appointment_booker LOGIN; END IF;
END $$;
CREATE SCHEMA IF NOT EXISTS appointment_booker AUTHORIZATION appointment_booker;
REVOKE ALL ON SCHEMA public FROM appointment_booker;
GRANT CONNECT ON DATABASE platform TO appointment_booker;
CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA appointment_booker;
\unset password
\getenv password APPOINTMENT_BOOKER_DB_PASSWORD
\if :{?password}
ALTER ROLE appointment_booker PASSWORD :'password';
\elif :{?require_passwords}
DO $$ BEGIN RAISE EXCEPTION 'APPOINTMENT_BOOKER_DB_PASSWORD must be set'; END $$;
\endif
