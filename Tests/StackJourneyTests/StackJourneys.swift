import Testing

/// Every app's journey through the running stack (X5). One at a time: each starts the six services as
/// docker-compose does, in the one database compose uses; or, from `scripts/journeys.sh`, each meets the stack an
/// operator started, its fakes on the ports that stack was given (see `JourneyProviders`).
@Suite("App journeys through the running stack", .serialized)
enum StackJourneys {}
