#!/usr/bin/env bash
# Run once by the postgres image on an empty volume (/docker-entrypoint-initdb.d): the database, then the
# bootstrap rendered from the registry of the services (deploy/postgres/bootstrap.sql, mounted at
# /platform/bootstrap.sql; the local stack runs the same file). Each role's password comes from the environment as
# <SCHEMA>_DB_PASSWORD (a .env file or a secret), never from the repository: one leaked service password opens one
# schema only. A missing one stops the script.
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" -d postgres -c "CREATE DATABASE platform"
psql -v ON_ERROR_STOP=1 -v require_passwords=1 --username "$POSTGRES_USER" -d platform -f "${BOOTSTRAP_SQL:-/platform/bootstrap.sql}"
