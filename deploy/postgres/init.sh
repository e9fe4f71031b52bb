#!/usr/bin/env bash
# Run once by the postgres image on an empty volume (/docker-entrypoint-initdb.d).
# One database, one role per service, each owning one schema and granted nothing else (X1).
# Each role's password comes from the environment as <SCHEMA>_DB_PASSWORD (WEATHER_FETCHER_DB_PASSWORD, ...; a
# .env file or a secret), never from the repository: one leaked service password opens one schema only.
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" -d postgres -c "CREATE DATABASE platform"
for schema in weather_fetcher warning_detector places_importer auth analytics_aggregator appointment_booker; do
  variable="${schema^^}_DB_PASSWORD"
  password="${!variable:-}"
  if [ -z "$password" ]; then echo "init.sh: $variable must be set" >&2; exit 1; fi
  psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" -d platform -v schema="$schema" -v password="$password" <<'SQL'
CREATE ROLE :"schema" LOGIN PASSWORD :'password';
CREATE SCHEMA :"schema" AUTHORIZATION :"schema";
GRANT CONNECT ON DATABASE platform TO :"schema";
SQL
done
# PostGIS for places-importer (P2), installed into its schema so its search_path finds the types and
# functions; only a superuser may create it.
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" -d platform -c "CREATE EXTENSION IF NOT EXISTS postgis SCHEMA places_importer"
# btree_gist for appointment-booker's no-double-booking exclusion constraint (B2), in its schema.
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" -d platform -c "CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA appointment_booker"
# pg_trgm for weather-fetcher's contains search (W1, X3), in its schema.
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" -d platform -c "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA weather_fetcher"
