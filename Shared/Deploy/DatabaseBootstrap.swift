import PlatformEvents

/// The database's bootstrap from the registry of the services: one role per service owning one schema and granted
/// nothing else (X1), the extensions each schema needs, and each role's password from the environment when it is
/// given. Rendered into `deploy/postgres/bootstrap.sql` by `platformctl render-services`; the local stack and the
/// compose deployment's init script both run that file, and `platformctl check-services` fails when it is stale.
public enum DatabaseBootstrap {
    /// Where the rendered script lives, from the repository's root.
    public static let path = "deploy/postgres/bootstrap.sql"

    /// The script for `services`, for psql 15 or later (`\getenv`), on the database `platform`, idempotent.
    public static func sql(for services: [ServiceIdentity]) -> String {
        var lines = [
            "-- Generated from the registry of the services (ServiceIdentity.all) by `platformctl render-services`; do not edit.",
            "-- Run by a superuser on the database `platform` with psql 15 or later, any number of times. One role per service,",
            "-- owning one schema and granted nothing else (X1); the extensions a schema needs, in that schema. A role's password",
            "-- is set from <SCHEMA>_DB_PASSWORD when the environment has it; with `-v require_passwords=1` a missing one stops it.",
            "\\set ON_ERROR_STOP 1",
            "SET client_min_messages = warning;",
        ]
        for service in services {
            let schema = service.schema
            let variable = "\(schema.uppercased())_DB_PASSWORD"
            lines += [
                "",
                "-- \(service.name)",
                "DO $$ BEGIN",
                "  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '\(schema)') THEN CREATE ROLE \(schema) LOGIN; END IF;",
                "END $$;",
                "CREATE SCHEMA IF NOT EXISTS \(schema) AUTHORIZATION \(schema);",
                "REVOKE ALL ON SCHEMA public FROM \(schema);",
                "GRANT CONNECT ON DATABASE platform TO \(schema);",
            ]
            lines += service.extensions.map { "CREATE EXTENSION IF NOT EXISTS \($0) SCHEMA \(schema);" }
            lines += [
                "\\unset password",
                "\\getenv password \(variable)",
                "\\if :{?password}",
                "ALTER ROLE \(schema) PASSWORD :'password';",
                "\\elif :{?require_passwords}",
                "DO $$ BEGIN RAISE EXCEPTION '\(variable) must be set'; END $$;",
                "\\endif",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
