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

/// Builds weather-fetcher from its environment: the platform runtime, the city catalogue import, the
/// provider client, the refresh scheduler, the warnings consumer and the HTTP API (W1-W10).
/// Tests call this same function with test configuration.
package func buildApplication(
    environment: EnvironmentReader, registry: PrometheusCollectorRegistry, logger: Logger
) async throws -> some ApplicationProtocol {
    let runtime = try await PlatformRuntime(
        identity: .weatherFetcher, environment: environment, migrations: WeatherFetcherMigrations.all, registry: registry, logger: logger)
    let configuration = try WeatherConfiguration(environment: environment)
    let client = runtime.postgres
    let http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: .init(timeout: .init(connect: .seconds(5))))
    let provider = makeProvider(configuration, http: http, logger: runtime.logger)
    let store = WeatherStore(client: client, logger: runtime.logger)
    // Searches run on a small pool of their own whose statements Postgres cancels past a time limit.
    let searchClient = runtime.configuration.postgres.makeClient(
        logger: runtime.logger, statementTimeout: configuration.searchStatementTimeout, connections: 4)
    let cities = CityStore(client: client, logger: runtime.logger, shortSearches: .standard(), searchClient: searchClient)
    let refresher = CityRefresher(
        provider: provider, store: store, schedule: configuration.refresh,
        topic: configuration.forecastsTopic, logger: runtime.logger)
    let reader = CityWeatherReader(
        store: store, refresher: refresher, schedule: configuration.refresh, onDemandTimeout: configuration.onDemandTimeout,
        onDemandQuota: WindowQuota(limit: configuration.onDemandRefreshesPerMinutePerAddress))
    let userCities = UserCityStore(
        client: client, logger: runtime.logger, recentLimit: 10, erased: runtime.erasedAccounts,
        userCitiesTopic: configuration.userCitiesTopic)
    // A signed-in view costs no round trip of its own: favourites from a per-user cache its own changes drop, recent
    // views written in batches (W7, W8).
    let knownFavourites = FavouriteIdsCache.favourites(ttl: configuration.favouritesCacheTTL)
    let recentViews = RecentViewsRecorder(store: userCities, recentLimit: userCities.recentLimit, logger: runtime.logger)

    let document = try OpenAPIDocument(in: Bundle.module)
    let access = try document.operationAccess()
    let router = runtime.makeRouter(document: document)
    // Public routes personalise when a token comes; a bad token is refused. The /v1/me operations require one.
    let warnings = CityWarningStore(client: client, logger: runtime.logger)
    // The hot weather view reads the caller from its context and takes no body: only the token check.
    CityWeatherRoute(
        cities: cities, reader: reader, recordView: RecordCityView(favourites: userCities, known: knownFavourites, recents: recentViews),
        warnings: warnings,
        configuration: configuration, cache: .views(ttl: configuration.viewCacheTTL)
    ).add(to: runtime.hotRoutes(on: router))
    let sharedTexts = SharedTextStore(
        client: client, lifetime: .seconds(configuration.shareLinkDays * 86_400), logger: runtime.logger)
    let sharePages = WeatherSharePages(
        baseURL: configuration.publicBaseURL, appName: configuration.appName, sharedTexts: sharedTexts, cities: cities,
        card: try WeatherSharePages.bundledCard())
    // The public share pages (W10), HTML outside the API document.
    sharePages.add(to: runtime.hotRoutes(on: router))
    let api = runtime.apiRoutes(on: router, access: access)
    try WeatherAPI(
        cities: cities, reader: reader, userCities: userCities, recentViews: recentViews,
        mark: MarkFavourite(cities: cities, favourites: userCities, known: knownFavourites, limit: configuration.favouritesPerAccount),
        unmark: UnmarkFavourite(cities: cities, favourites: userCities, known: knownFavourites), warnings: warnings, store: store,
        configuration: configuration,
        searchQuota: WindowQuota(limit: configuration.searchesPerMinutePerAddress),
        shareCity: ShareCity(
            texts: CityShareTexts(
                reader: reader, warnings: warnings, texts: ShareTexts(appName: configuration.appName), appLink: configuration.appLink),
            pages: sharedTexts),
        sharePages: sharePages
    ).registerHandlers(on: api)

    let warningsConsumer = try runtime.makeConsumer(
        topics: [
            ConsumedTopic(TopicCatalogue.warnings, name: configuration.warningsTopic),
            ConsumedTopic(TopicCatalogue.users, name: configuration.usersTopic),
        ],
        handler: AccountEventsRouter(
            lifecycle: runtime.accountLifecycle(UserCitiesOwner(favourites: knownFavourites, recentViews: recentViews)), next: WarningsTopicHandler())
    )
    let scheduler = RefreshScheduler(
        refresher: refresher, store: store, schedule: configuration.refresh, startGate: runtime.startGate, logger: runtime.logger)
    var startupTasks: [PlatformRuntime.StartupTask] = []
    if let path = configuration.catalogueFile {
        startupTasks.append { client, logger in
            try await CatalogueImport.run(path: path, into: CityStore(client: client, logger: logger), logger: logger)
        }
    } else {
        runtime.logger.warning("WEATHER_CITY_CATALOGUE is not set: no city catalogue is imported at start")
    }
    return runtime.makeApplication(
        router: router, consumers: [warningsConsumer],
        services: [
            HTTPClientService(client: http), scheduler, searchClient,
            RecentViewsFlush(recorder: recentViews, interval: configuration.recentViewsFlushInterval),
        ],
        startupTasks: startupTasks)
}

func makeProvider(_ configuration: WeatherConfiguration, http: HTTPClient, logger: Logger) -> any WeatherProvider {
    let userAgent = "mobile-backend-platform weather-fetcher"
    return switch configuration.provider {
    case .openMeteo:
        OpenMeteoProvider(
            http: ProviderHTTPClient(
                provider: "open-meteo", policy: configuration.http, http: http, userAgent: userAgent, logger: logger),
            baseURL: configuration.openMeteoBaseURL, maxCitiesPerRequest: configuration.citiesPerRequest)
    case .worldWeatherOnline:
        WorldWeatherOnlineProvider(
            http: ProviderHTTPClient(
                provider: "worldweatheronline", policy: configuration.http, http: http, userAgent: userAgent, logger: logger),
            baseURL: configuration.worldWeatherOnlineBaseURL, apiKey: configuration.worldWeatherOnlineKey!)
    }
}
