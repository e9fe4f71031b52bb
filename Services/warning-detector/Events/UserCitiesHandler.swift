import Logging
import PlatformCore
import PlatformEvents
import PlatformPostgres
import PostgresNIO

/// Applies `weather.user-cities` (A4): a favourite added or removed keeps the audience of the city's warnings
/// current, each event once, in order, inside the idempotent consumer's transaction.
struct UserCitiesHandler: EventHandler {
    /// The key of `erased_accounts`: an erased account's favourite is not brought back.
    let erased: ErasedAccounts

    func handle(_ event: ReceivedEvent, connection: PostgresConnection, logger: Logger) async throws {
        switch event.header.type {
        case EventTypes.favouriteAdded:
            try await UserStore.addFavourite(try event.payload(as: FavouriteChanged.self), erased: erased, on: connection, logger: logger)
        case EventTypes.favouriteRemoved:
            try await UserStore.removeFavourite(try event.payload(as: FavouriteChanged.self), on: connection, logger: logger)
        default:
            throw EventDecodingError(reason: "\(event.header.type) does not belong on the user-cities topic")
        }
    }
}
