// swift-tools-version:6.1
import Foundation
import PackageDescription

/// Where each library product comes from, so a target names the products it uses and nothing else.
let productPackages: [String: String] = [
    "ArgumentParser": "swift-argument-parser",
    "AsyncHTTPClient": "async-http-client",
    "Crypto": "swift-crypto",
    "HTTPTypes": "swift-http-types",
    "Hummingbird": "hummingbird",
    "HummingbirdBcrypt": "hummingbird-auth",
    "HummingbirdCore": "hummingbird",
    "HummingbirdTesting": "hummingbird",
    "JWTKit": "jwt-kit",
    "Logging": "swift-log",
    "Metrics": "swift-metrics",
    "NIOCore": "swift-nio",
    "NIOHTTP1": "swift-nio",
    "NIOPosix": "swift-nio",
    "NIOSSL": "swift-nio-ssl",
    "OTel": "swift-otel",
    "OpenAPIHummingbird": "swift-openapi-hummingbird",
    "OpenAPIRuntime": "swift-openapi-runtime",
    "PostgresNIO": "postgres-nio",
    "Prometheus": "swift-prometheus",
    "ServiceLifecycle": "swift-service-lifecycle",
    "Tracing": "swift-distributed-tracing",
    "X509": "swift-certificates",
]

func lib(_ product: String) -> Target.Dependency {
    .product(name: product, package: productPackages[product] ?? product)
}

/// The six services, by executable name, module name and contract module. Each lives in `Services/<executable>`;
/// its contract module (`Services/<executable>/Contract`) holds the types and client generated from its openapi.yaml.
let services: [(executable: String, module: String, contract: String)] = [
    ("weather-fetcher", "WeatherFetcher", "WeatherContract"),
    ("warning-detector", "WarningDetector", "WarningsContract"),
    ("places-importer", "PlacesImporter", "PlacesContract"),
    ("auth", "Auth", "AuthContract"),
    ("analytics-aggregator", "AnalyticsAggregator", "AnalyticsContract"),
    ("appointment-booker", "AppointmentBooker", "AppointmentsContract"),
]

/// The services whose rules and use cases (`Domain/`, `UseCases/`) are a module of their own, `<Module>Core`, with what
/// it may use: the platform's core and event modules and plain libraries, never Postgres, HTTP or the contract
/// (`scripts/check-cores.py` holds the line, since SwiftPM lets a target import any module already built).
let coreDependencies: [String: [Target.Dependency]] = [
    "WarningDetector": [lib("Logging")],
    "WeatherFetcher": [lib("Logging"), lib("Metrics")],
    "AnalyticsAggregator": [lib("Logging"), lib("Crypto")],
    "AppointmentBooker": [lib("Logging"), lib("Crypto")],
    "Auth": [lib("Logging"), lib("Crypto")],
    "PlacesImporter": [lib("Logging"), lib("Metrics")],
]

/// What `Services/<executable>` holds, for the core target to leave out everything but its two folders.
func serviceFolderEntries(_ executable: String) -> [String] {
    let folder = Context.packageDirectory + "/Services/" + executable
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// Libraries a service needs beyond the platform modules.
let serviceDependencies: [String: [Target.Dependency]] = [
    "Auth": [
        lib("AsyncHTTPClient"), lib("HummingbirdBcrypt"), lib("JWTKit"), lib("Crypto"), lib("PostgresNIO"),
        lib("NIOCore"), lib("NIOPosix"), lib("NIOSSL"), lib("HTTPTypes"), lib("X509"),
    ],
    "WeatherFetcher": [
        lib("Tracing"), lib("AsyncHTTPClient"), lib("PostgresNIO"), lib("NIOCore"), lib("NIOPosix"), lib("HTTPTypes"),
    ],
    "PlacesImporter": [lib("AsyncHTTPClient"), lib("PostgresNIO"), lib("NIOCore"), lib("NIOHTTP1"), lib("HTTPTypes")],
    "AnalyticsAggregator": [lib("Crypto"), lib("PostgresNIO"), lib("NIOCore"), lib("HTTPTypes"), lib("ServiceLifecycle")],
    "AppointmentBooker": [lib("Crypto"), lib("PostgresNIO"), lib("Metrics"), lib("NIOCore"), lib("HTTPTypes")],
    "WarningDetector": [
        lib("AsyncHTTPClient"), lib("PostgresNIO"), lib("JWTKit"), lib("NIOCore"), lib("NIOHTTP1"), lib("NIOSSL"),
        lib("HTTPTypes"), lib("Tracing"),
    ],
]

/// What a service's unit target needs beyond the service, the platform modules and UnitTestSupport.
let unitTestDependencies: [String: [Target.Dependency]] = [
    "WeatherFetcher": ["WeatherFetcherFixtures", lib("AsyncHTTPClient"), lib("Logging"), lib("NIOCore")],
    "AnalyticsAggregator": [lib("Logging"), lib("PostgresNIO")],
    "AppointmentBooker": [lib("Crypto")],
    "Auth": [lib("HTTPTypes"), lib("X509"), lib("Crypto")],
]

/// Data files a service reads at run time besides its API document.
let serviceResources: [String: [Resource]] = [
    // The horoscope readings' texts (B4), versioned data files in Thai and English.
    "AppointmentBooker": [.copy("Content")],
    // The admin dashboard's page, scripts and styles (N5), served as they are.
    "AnalyticsAggregator": [.copy("Dashboard")],
    // The share pages' preview image (W10).
    "WeatherFetcher": [.copy("Share")],
]

/// The platform's modules (`Shared/<folder>`), in dependency order: the six services and the tools import what they use.
let platformModules: [(name: String, folder: String, dependencies: [Target.Dependency])] = [
    // Settings, civil dates, text limits, start gates and timeouts, JSON logs, the tracing bootstrap; who a caller
    // is (roles, the authenticated user) and where in a log (positions, topic specs), which every layer names; the one
    // TTL cache and the window quota.
    ("PlatformCore", "Core", [
        lib("Crypto"), lib("Logging"), lib("ServiceLifecycle"), lib("Tracing"), lib("OTel"),
    ]),
    // The in-house librdkafka client: producer, consumer, admin, group offsets.
    ("PlatformKafka", "Kafka", [
        "PlatformCore", "CRdKafka", lib("Logging"), lib("Metrics"), lib("ServiceLifecycle"),
    ]),
    // The inter-service contract, free of the client: envelopes, payloads, the topic catalogue, the registry of the
    // services (which service owns what).
    ("PlatformEvents", "Events", ["PlatformCore"]),
    // Postgres with migrations, the outbox and its relay, the idempotent consumer and its ledger, erased accounts.
    ("PlatformPostgres", "Postgres", [
        "PlatformCore", "PlatformKafka", "PlatformEvents", lib("PostgresNIO"), lib("NIOCore"), lib("NIOSSL"), lib("Logging"),
        lib("Metrics"), lib("ServiceLifecycle"), lib("Tracing"),
    ]),
    // HTTP both ways: the middleware chain, access tokens, share pages; provider clients.
    ("PlatformHTTP", "HTTP", [
        "PlatformCore", lib("Hummingbird"), lib("HTTPTypes"), lib("NIOCore"), lib("NIOHTTP1"), lib("JWTKit"), lib("Crypto"),
        lib("Logging"), lib("Prometheus"), lib("ServiceLifecycle"), lib("AsyncHTTPClient"), lib("OpenAPIRuntime"),
        lib("Tracing"),
    ]),
    // A service's process: configuration, the runtime that wires the above, readiness, ServiceMain.
    ("PlatformRuntime", "Runtime", [
        "PlatformCore", "PlatformKafka", "PlatformEvents", "PlatformPostgres", "PlatformHTTP", "CCrashDescriptors",
        lib("Hummingbird"), lib("PostgresNIO"), lib("Logging"), lib("Metrics"), lib("Prometheus"),
        lib("ServiceLifecycle"),
    ]),
]

/// All of the platform, for what uses the whole of it (a service, its tests).
let platform: [Target.Dependency] = platformModules.map { .byName(name: $0.name) }

/// What the harnesses need: the throw-away infrastructure and the clients they use.
let harnessDependencies: [Target.Dependency] = [
    "TestSupport", "WeatherFetcherFixtures", lib("HummingbirdTesting"), lib("Crypto"), lib("HTTPTypes"),
    lib("PostgresNIO"), lib("JWTKit"), lib("AsyncHTTPClient"), lib("ServiceLifecycle"),
]

/// What an integration target needs: the harnesses and what they use.
let integrationDependencies: [Target.Dependency] = ["ServiceTestSupport"] + harnessDependencies

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// A test target at `path` with the package's settings.
func testTarget(_ name: String, path: String, _ dependencies: [Target.Dependency]) -> Target {
    .testTarget(name: name, dependencies: dependencies, path: path, swiftSettings: swiftSettings)
}

let package = Package(
    name: "mobile-backend-platform",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: services.map { .executable(name: $0.executable, targets: ["\($0.module)Main"]) } + [
        // What an app adds (X6): the session, the telemetry batcher and each service's generated client.
        .library(name: "PlatformClient", targets: ["PlatformClient"] + services.map(\.contract)),
        .executable(name: "platformctl", targets: ["PlatformCtl"]),
        .executable(name: "platform-bench", targets: ["PlatformBench"]),
        .executable(name: "pipeline-probe", targets: ["PipelineProbe"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        // Already in the graph through async-http-client and jwt-kit; named for TLS (push), App Attest's certificate
        // chains (auth) and the tests' self-signed certificates.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        // Contract-first HTTP (X3): types and server stubs generated from each service's openapi.yaml at build time.
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        // The apps' clients (X6) send their requests with AsyncHTTPClient.
        // Traces across the Kafka hop (X4): W3C trace context, spans exported over OTLP/HTTP when
        // OTEL_EXPORTER_OTLP_ENDPOINT is set (the gRPC exporter is left out: it would double the build).
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        .systemLibrary(
            name: "CRdKafka",
            path: "Shared/CRdKafka",
            pkgConfig: "rdkafka",
            providers: [.apt(["librdkafka-dev"])]
        ),
        // The crash signals' descriptors handler (see its header): C, because it runs in a signal handler.
        .target(name: "CCrashDescriptors", path: "Shared/CCrashDescriptors"),
        // The platform the six services share, one module per concern, each depending only on those before it.
    ] + platformModules.map { module in
        .target(
            name: module.name,
            dependencies: module.dependencies,
            path: "Shared/\(module.folder)",
            swiftSettings: swiftSettings
        )
    } + [
        // The contract modules' generator: swift-openapi-generator, then plain imports (see the plugin's comment).
        .plugin(
            name: "PublicContractGenerator",
            capability: .buildTool(),
            dependencies: [
                .product(name: "swift-openapi-generator", package: "swift-openapi-generator"), "contract-import-access",
            ],
            path: "Plugins/PublicContractGenerator"
        ),
        .target(
            name: "PlatformClient",
            dependencies: [
                "AuthContract", "AnalyticsContract", "WeatherContract", "WarningsContract", "PlacesContract", "AppointmentsContract",
                lib("OpenAPIRuntime"), lib("AsyncHTTPClient"), lib("HTTPTypes"), lib("NIOCore"), lib("NIOHTTP1"),
            ],
            path: "Clients/PlatformClient",
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "contract-import-access", path: "Tools/contract-import-access", swiftSettings: swiftSettings),
        // Deployment tooling from the registry of the services (the database bootstrap, the broker's access rules, KEDA
        // overlays and the check of every file that lists the services): only the tool links it, never a service.
        .target(name: "PlatformDeploy", dependencies: ["PlatformCore", "PlatformEvents"], path: "Shared/Deploy", swiftSettings: swiftSettings),
        .executableTarget(
            name: "PlatformCtl",
            dependencies: ["PlatformCore", "PlatformKafka", "PlatformEvents", "PlatformHTTP", "PlatformDeploy", lib("ArgumentParser")],
            path: "Tools/platformctl",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            // The smallest service on the platform runtime: what the fault suite kills and the consumer bench measures.
            name: "PipelineProbe",
            dependencies: ["PlatformCore", "PlatformEvents", "PlatformPostgres", "PlatformHTTP", "PlatformRuntime", lib("PostgresNIO")],
            path: "Tools/pipeline-probe",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PlatformBench",
            dependencies: ["PlatformCore", "PlatformKafka", "PlatformEvents", "PlatformPostgres", "PlatformHTTP"] + [
                lib("ArgumentParser"), lib("PostgresNIO"), lib("HummingbirdBcrypt"), lib("JWTKit"),
                lib("AsyncHTTPClient"), "TestSupport",
            ],
            path: "Benchmarks/platform-bench",
            swiftSettings: swiftSettings
        ),
        // Helpers that start nothing (tokens, repository files, `eventually`), for the unit targets and TestSupport.
        .target(
            name: "UnitTestSupport",
            dependencies: ["PlatformCore", "PlatformEvents", "PlatformHTTP", lib("JWTKit")],
            path: "Tests/UnitTestSupport",
            swiftSettings: swiftSettings
        ),
        // weather-fetcher's test data (cities, catalogue, provider answers), for its unit and its service tests.
        .target(
            name: "WeatherFetcherFixtures",
            dependencies: ["WeatherFetcher", "UnitTestSupport"],
            path: "Tests/Fixtures/WeatherFetcherFixtures",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "TestSupport",
            dependencies: platform + [
                "UnitTestSupport", lib("AsyncHTTPClient"), lib("HummingbirdTesting"), lib("JWTKit"),
                lib("PostgresNIO"), lib("Logging"), lib("HTTPTypes"), lib("HummingbirdCore"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                lib("NIOPosix"), lib("NIOSSL"), lib("ServiceLifecycle"),
                .product(name: "X509", package: "swift-certificates"),
                lib("Crypto"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        // The platform modules against the real broker and Postgres.
        testTarget("PlatformIntegrationTests", path: "Tests/Integration/PlatformIntegrationTests", platform + [
            "TestSupport", lib("HummingbirdTesting"), lib("JWTKit"), lib("PostgresNIO"), lib("NIOHTTP1"),
        ]),
        // The fault suite: kills, restarts and poison events against the built `pipeline-probe`; readiness through
        // a broker and a Postgres restart.
        testTarget("FaultTests", path: "Tests/FaultTests", platform + [
            "TestSupport", "AppointmentBooker", lib("PostgresNIO"), lib("Logging"), lib("HummingbirdTesting"),
            lib("Prometheus"),
        ]),
        // Built executables stopped with work in flight: a suite of its own, run alone by the test command.
        testTarget(
            "ShutdownTests", path: "Tests/ShutdownTests",
            platform + ["TestSupport", "AppointmentBooker", "PlacesImporter", lib("PostgresNIO")]),
        // Unit targets: rules tested in-process with nothing running (no Postgres, broker, child process or server).
        testTarget("PlatformUnitTests", path: "Tests/Unit/PlatformUnitTests", platform + [
            "PlatformDeploy", "UnitTestSupport", lib("Hummingbird"), lib("HummingbirdTesting"), lib("JWTKit"), lib("Logging"),
            lib("Prometheus"), lib("NIOHTTP1"), lib("OpenAPIRuntime"),
        ]),
        testTarget("PlatformClientUnitTests", path: "Tests/Unit/PlatformClientUnitTests", [
            "PlatformClient", "AuthContract", "AnalyticsContract", lib("OpenAPIRuntime"), lib("HTTPTypes"),
        ]),
        // Each app's journey through the six services started as docker-compose starts them (X5), with
        // nothing but the generated clients; a phase of its own in the test command.
        testTarget("StackJourneyTests", path: "Tests/StackJourneyTests", [
            "PlatformClient", "TestSupport", "PlacesContract", "AuthContract", "WeatherContract", "WarningsContract",
            "AnalyticsContract", "AppointmentsContract", "UnitTestSupport", lib("OpenAPIRuntime"),
            lib("HTTPTypes"), lib("AsyncHTTPClient"), lib("Crypto"), lib("Hummingbird"), lib("NIOCore"),
            lib("ServiceLifecycle"),
        ]),
        // Every service's harness (`ServiceHarness` with its builder, migrations and requests) for the integration targets.
        .target(
            name: "ServiceTestSupport",
            dependencies: platform + harnessDependencies + services.map { .byName(name: $0.module) },
            path: "Tests/ServiceTestSupport",
            swiftSettings: swiftSettings
        ),
        // Flows across services (account lifecycle, the apps' journeys in-process), the built executables as
        // processes, the documents and their fuzzers, tracing across the Kafka hop.
        testTarget(
            "CrossServiceTests", path: "Tests/Integration/CrossServiceTests",
            platform + integrationDependencies + services.map { .byName(name: $0.module) }),
    ] + services.compactMap { service -> Target? in
        // A service's core: its rules and use cases with the protocols they need, in plain Swift.
        coreDependencies[service.module].map { dependencies in
            .target(
                name: "\(service.module)Core",
                dependencies: ["PlatformCore", "PlatformEvents"] + dependencies,
                path: "Services/\(service.executable)",
                exclude: serviceFolderEntries(service.executable).filter { !["Domain", "UseCases"].contains($0) },
                sources: ["Domain", "UseCases"],
                swiftSettings: swiftSettings
            )
        }
    } + services.flatMap { service -> [Target] in
        [
            // A service's unit target: its rules in-process, with nothing running.
            testTarget(
                "\(service.module)UnitTests", path: "Tests/Unit/\(service.module)UnitTests",
                platform + [.byName(name: service.module), "UnitTestSupport"] + (unitTestDependencies[service.module] ?? [])),
            // A service's integration target: its buildApplication live on throw-away Postgres and broker.
            testTarget(
                "\(service.module)IntegrationTests", path: "Tests/Integration/\(service.module)IntegrationTests",
                platform + integrationDependencies + [.byName(name: service.module)]),
            // The document's types and client, public, for the apps' client libraries (X6). The service generates its
            // own server-side types from the same document: its APIProtocol leaves out the hand-registered routes.
            .target(
                name: service.contract,
                dependencies: [lib("OpenAPIRuntime")],
                path: "Services/\(service.executable)/Contract",
                swiftSettings: swiftSettings,
                plugins: ["PublicContractGenerator"]
            ),
            // The service: a library its executable runs and its tests import, over its core when it has one.
            .target(
                name: service.module,
                dependencies: platform + [lib("OpenAPIRuntime"), lib("OpenAPIHummingbird")]
                    + (serviceDependencies[service.module] ?? [])
                    + (coreDependencies[service.module] == nil ? [] : [.byName(name: "\(service.module)Core")]),
                path: "Services/\(service.executable)",
                exclude: ["Main", "Contract", "README.md"]
                    + (coreDependencies[service.module] == nil ? [] : ["Domain", "UseCases"]),
                // The document is both the generator's input and what the service serves at /openapi.yaml.
                resources: [.copy("openapi.yaml")] + (serviceResources[service.module] ?? []),
                swiftSettings: swiftSettings,
                plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
            ),
            // The process: five lines that hand the library's `buildApplication` to `ServiceMain`.
            .executableTarget(
                name: "\(service.module)Main",
                dependencies: ["PlatformEvents", "PlatformRuntime", .byName(name: service.module)],
                path: "Services/\(service.executable)/Main",
                swiftSettings: swiftSettings
            ),
        ]
    }
)
