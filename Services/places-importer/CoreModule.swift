// The rules and use cases are a module of their own (no Postgres, no HTTP); everything that imports the service
// sees them as part of it.
@_exported import PlacesImporterCore
