import Testing

/// Every app's journey through the running stack (issue 31). One at a time: each starts the six services as
/// docker-compose does, in the one database compose uses.
@Suite("App journeys through the running stack", .serialized)
enum StackJourneys {}
