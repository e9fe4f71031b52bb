import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import OpenAPIHummingbird
import PlatformCore
import PlatformEvents
import PlatformHTTP
import PlatformPostgres
import PlatformRuntime
import Prometheus
import ServiceLifecycle

/// Builds places-importer from its environment: the platform runtime, the Overpass and (with a key) Yelp
/// importers, the import scheduler, the Nominatim lookup, the HTTP API (P1-P4) and the consumer of account
/// deletions and merges (U9) and of appointment-booker's requests for places of worship (B4).
/// Tests call this same function with test configuration.
package func buildApplication(
    environment: EnvironmentReader, registry: PrometheusCollectorRegistry, logger: Logger
) async throws -> some ApplicationProtocol {
    let runtime = try await PlatformRuntime(
        identity: .placesImporter, environment: environment, migrations: PlacesImporterMigrations.all, registry: registry, logger: logger)
    let configuration = try PlacesConfiguration(environment: environment)
    let client = runtime.postgres
    let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(timeout: .init(connect: .seconds(10))))
    let userAgent = "mobile-backend-platform places-importer (+https://github.com/mobile-backend-platform)"
    let providerClient = { (name: String) in
        ProviderHTTPClient(provider: name, policy: configuration.http, http: http, userAgent: userAgent, logger: runtime.logger)
    }
    var providers: [any PlacesProvider] = [
        OverpassProvider(http: providerClient("overpass"), baseURL: configuration.overpassBaseURL, tileDegrees: configuration.tileDegrees)
    ]
    if let key = configuration.yelpKey {
        providers.append(
            YelpProvider(
                http: providerClient("yelp"), baseURL: configuration.yelpBaseURL, apiKey: key, tileDegrees: configuration.tileDegrees,
                resultCap: configuration.yelpResultCap))
    }
    let places = PlaceStore(
        client: client, logger: runtime.logger, matchDistanceMetres: configuration.matchDistanceMetres,
        topic: configuration.placesTopic)
    let users = UserPlaceStore(client: client, logger: runtime.logger, places: places)
    let limits = AccountDayLimits(placesRated: configuration.ratingsPerAccountDay, placesAdded: configuration.addedPerAccountDay)
    let areas = ImportAreaStore(client: client, logger: runtime.logger)

    let index =
        configuration.nearbyFromMemory
        ? PlaceIndex(feed: PlaceChangeFeed(client: client, logger: runtime.logger), render: PlaceJSON.openObject, logger: runtime.logger) : nil
    let nearbyPlaces = NearbyPlaces(index: index, pinCache: .pins(ttl: configuration.pinCacheTTL), users: users, render: PlaceJSON.openObject)

    let coverage = configuration.onDemand ? ImportCoverage(tileDegrees: configuration.onDemandTileDegrees) : nil
    let onDemand = coverage.map {
        OnDemandImports(
            coverage: $0, areas: areas, perHour: configuration.onDemandTilesPerHour, perUserPerHour: configuration.onDemandTilesPerUserHour,
            logger: runtime.logger)
    }

    let document = try OpenAPIDocument(in: Bundle.module)
    let access = try document.operationAccess()
    let router = runtime.makeRouter(document: document)
    // The hot nearby routes read the caller from their context and take no body: only the token check.
    NearbyRoutes(nearbyPlaces: nearbyPlaces, configuration: configuration, onDemand: onDemand)
        .add(to: runtime.hotRoutes(on: router, token: .required))
    let api = runtime.apiRoutes(on: router, access: access, token: .required)
    let lookups = AddressLookups(
        nominatim: NominatimClient(http: providerClient("nominatim"), baseURL: configuration.nominatimBaseURL),
        perAccountHour: configuration.lookupsPerAccountHour, queue: configuration.lookupQueue)
    let reviews = PlaceReviewStore(client: runtime.postgres, logger: runtime.logger, places: places)
    try PlacesAPI(
        places: places, users: users, rate: RatePlace(catalogue: places, places: users, limits: limits),
        add: AddPlace(places: users, limits: limits, addresses: lookups),
        mark: MarkPlace(places: places, marks: users, userChanged: { nearbyPlaces.userChanged($0) }),
        areas: areas, saveArea: SaveImportArea(areas: areas, maxDegrees: ImportAreaBox.maximumDegrees), runArea: RunImportArea(areas: areas),
        reviews: reviews,
        // Listed (or not) for everyone from the next request on, on this instance; others within their refresh.
        review: ReviewPlace(reviews: reviews, placesChanged: { try await nearbyPlaces.placesChanged() }),
        nearbyPlaces: nearbyPlaces, lookups: lookups
    ).registerHandlers(on: api)
    let scheduler = ImportScheduler(
        importer: AreaImporter(
            providers: providers, places: places, areas: areas, logger: runtime.logger,
            placesChanged: { [logger = runtime.logger] in
                do {
                    try await nearbyPlaces.placesChanged()
                } catch {
                    // The periodic refresh catches up.
                    logger.warning("place index refresh failed", metadata: ["error": "\(String(reflecting: error))"])
                }
            }),
        areas: areas, worshipRequests: WorshipAreaRequests(client: client, topic: places.topic, logger: runtime.logger),
        configuredAreas: configuration.areas, interval: configuration.importInterval, tick: configuration.importTick,
        startGate: runtime.startGate, logger: runtime.logger)
    var services: [any Service] = [HTTPClientService(client: http), scheduler]
    if let coverage {
        services.append(
            ImportCoverageService(
                coverage: coverage, areas: areas, interval: configuration.nearbyRefresh * 5, startGate: runtime.startGate, logger: runtime.logger))
        services.append(
            OnDemandTileExpiry(
                areas: areas, unrequestedFor: configuration.onDemandTileTTL, interval: configuration.onDemandExpiryInterval,
                startGate: runtime.startGate, logger: runtime.logger))
    }
    if let index {
        services.append(
            PlaceIndexService(index: index, interval: configuration.nearbyRefresh, startGate: runtime.startGate, logger: runtime.logger))
    }
    let accountEvents = try runtime.makeConsumer(
        topics: [
            ConsumedTopic(TopicCatalogue.users, name: configuration.usersTopic),
            ConsumedTopic(TopicCatalogue.placeRequests, name: configuration.requestsTopic),
        ],
        handler: AccountEventsRouter(
            lifecycle: runtime.accountLifecycle(MemberPlacesOwner()),
            next: WorshipRequestsHandler(searchBox: WorshipSearchBox(tileDegrees: configuration.tileDegrees))))
    return runtime.makeApplication(router: router, consumers: [accountEvents], services: services)
}
