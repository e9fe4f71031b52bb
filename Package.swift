// swift-tools-version:6.1
import PackageDescription

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

/// Libraries a service needs beyond `Shared`.
let serviceDependencies: [String: [Target.Dependency]] = [
    "Auth": [
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
    ],
    "WeatherFetcher": [
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
    ],
    "PlacesImporter": [
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
    ],
    "AnalyticsAggregator": [
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
    ],
    "AppointmentBooker": [
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
    ],
    "WarningDetector": [
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "JWTKit", package: "jwt-kit"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
    ],
]

/// What a service's unit target needs beyond the service, Shared and UnitTestSupport.
let unitTestDependencies: [String: [Target.Dependency]] = [
    "WeatherFetcher": [
        "WeatherFetcherFixtures",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
    ],
    "AnalyticsAggregator": [
        .product(name: "Logging", package: "swift-log"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
    ],
    "AppointmentBooker": [.product(name: "Crypto", package: "swift-crypto")],
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

/// Services whose routes are generated from the `openapi.yaml` beside their code (issue 14; the others follow).
let contractFirst: Set<String> = [
    "PlacesImporter", "WeatherFetcher", "WarningDetector", "Auth", "AppointmentBooker", "AnalyticsAggregator",
]

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

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
        // Already in the graph through async-http-client and jwt-kit; named for TLS (push) and the tests'
        // self-signed certificate.
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        // Contract-first HTTP (X3): types and server stubs generated from each service's openapi.yaml at build time.
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        // The apps' clients (X6) send their requests with AsyncHTTPClient.
        // Traces across the Kafka hop (issue 20): W3C trace context, spans exported over OTLP/HTTP when
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
        .target(
            name: "Shared",
            dependencies: [
                "CRdKafka",
                "CCrashDescriptors",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
            ],
            path: "Shared",
            exclude: ["CRdKafka", "CCrashDescriptors", "OpenAPI"],
            swiftSettings: swiftSettings
        ),
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
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Clients/PlatformClient",
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "contract-import-access", path: "Tools/contract-import-access", swiftSettings: swiftSettings),
        .executableTarget(
            name: "PlatformCtl",
            dependencies: [
                "Shared",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Tools/platformctl",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            // The smallest service on the platform runtime: what the fault suite kills and the consumer bench measures.
            name: "PipelineProbe",
            dependencies: ["Shared", .product(name: "PostgresNIO", package: "postgres-nio")],
            path: "Tools/pipeline-probe",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "PlatformBench",
            dependencies: [
                "Shared",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                "TestSupport",
            ],
            path: "Benchmarks/platform-bench",
            swiftSettings: swiftSettings
        ),
        // Helpers that start nothing (tokens, repository files, `eventually`), for the unit targets and TestSupport.
        .target(
            name: "UnitTestSupport",
            dependencies: ["Shared", .product(name: "JWTKit", package: "jwt-kit")],
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
            dependencies: [
                "Shared", "UnitTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/TestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SharedTests",
            dependencies: [
                "Shared", "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/SharedTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            // The fault suite: kills, restarts and poison events against the built `pipeline-probe`; readiness through
            // a broker and a Postgres restart.
            name: "FaultTests",
            dependencies: [
                "Shared", "TestSupport", "AppointmentBooker", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            path: "Tests/FaultTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            // Built executables stopped with work in flight: a suite of its own, run alone by the test command.
            name: "ShutdownTests",
            dependencies: [
                "Shared", "TestSupport", "AppointmentBooker", "PlacesImporter", .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/ShutdownTests",
            swiftSettings: swiftSettings
        ),
        // Unit targets: rules tested in-process with nothing running (no Postgres, broker, child process or server).
        .testTarget(
            name: "PlatformUnitTests",
            dependencies: [
                "Shared", "UnitTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/Unit/PlatformUnitTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PlatformClientUnitTests",
            dependencies: [
                "PlatformClient", "AuthContract", "AnalyticsContract",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/Unit/PlatformClientUnitTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            // Each app's journey through the six services started as docker-compose starts them (issue 31), with
            // nothing but the generated clients; a phase of its own in the test command.
            name: "StackJourneyTests",
            dependencies: [
                "PlatformClient", "TestSupport", "PlacesContract", "AuthContract", "WeatherContract", "WarningsContract",
                "AnalyticsContract", "AppointmentsContract", "UnitTestSupport",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/StackJourneyTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServicesTests",
            dependencies: [
                "Shared", "TestSupport", .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ] + services.map { .byName(name: $0.module) } + ["WeatherFetcherFixtures"],
            path: "Tests/ServicesTests",
            swiftSettings: swiftSettings
        ),
    ] + services.map { service in
        // A service's unit target: its rules in-process, with nothing running.
        .testTarget(
            name: "\(service.module)UnitTests",
            dependencies: [.byName(name: service.module), "Shared", "UnitTestSupport"] + (unitTestDependencies[service.module] ?? []),
            path: "Tests/Unit/\(service.module)UnitTests",
            swiftSettings: swiftSettings
        )
    } + services.flatMap { service -> [Target] in
        let generated = contractFirst.contains(service.module)
        return [
            // The document's types and client, public, for the apps' client libraries (X6). The service generates its
            // own server-side types from the same document: its APIProtocol leaves out the hand-registered routes.
            .target(
                name: service.contract,
                dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
                path: "Services/\(service.executable)/Contract",
                swiftSettings: swiftSettings,
                plugins: ["PublicContractGenerator"]
            ),
            // The service: a library its executable runs and its tests import.
            .target(
                name: service.module,
                dependencies: ["Shared"] + (serviceDependencies[service.module] ?? [])
                    + (generated
                        ? [
                            .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                            .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                        ] : []),
                path: "Services/\(service.executable)",
                exclude: ["Main", "Contract"],
                // The document is both the generator's input and what the service serves at /openapi.yaml.
                resources: (generated ? [.copy("openapi.yaml")] : []) + (serviceResources[service.module] ?? []),
                swiftSettings: swiftSettings,
                plugins: generated ? [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")] : []
            ),
            // The process: five lines that hand the library's `buildApplication` to `ServiceMain`.
            .executableTarget(
                name: "\(service.module)Main",
                dependencies: ["Shared", .byName(name: service.module)],
                path: "Services/\(service.executable)/Main",
                swiftSettings: swiftSettings
            ),
        ]
    }
)
