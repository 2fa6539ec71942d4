// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Summit",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "summit", targets: ["summit"]),
        .executable(name: "summit-bench", targets: ["summit-bench"]),
        .library(name: "Postgres", targets: ["Postgres"]),
        .library(name: "Summit", targets: ["Summit"]),
        .library(name: "MountainGraph", targets: ["MountainGraph"]),
        .library(name: "ActivityImport", targets: ["ActivityImport"]),
        .library(name: "GridSync", targets: ["GridSync"]),
        .library(name: "Relay", targets: ["Relay"]),
        .library(name: "Gateway", targets: ["Gateway"]),
        .library(name: "MeetSolver", targets: ["MeetSolver"]),
        .library(name: "Push", targets: ["Push"]),
    ],
    targets: [
        // C system libraries from Debian (-dev packages), found through pkg-config.
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libcurl with nghttp2: APNs's HTTP/2, multiplexed, over TLS (OpenSSL) with ALPN h2.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // epoll and eventfd: in the C library, not in Glibc's Swift module.
        .systemLibrary(name: "CLinux"),

        .target(name: "Digest", dependencies: ["CCrypto"]),
        // Zip reading and raw deflate over zlib: SRTM tiles, graph blobs, activity exports.
        .target(name: "ZipArchive", dependencies: ["CZlib"]),
        // The nesting limit of every JSON reader and its one check: a loop over bytes, no dependencies.
        .target(name: "JSONDepth"),
        // OSM → canonical directed graph; pure Swift, never imports Postgres.
        // Calendar days without a time zone database: timestamps, sync stamps, recordings, the resort clock.
        .target(name: "CivilCalendar"),
        .target(name: "MountainGraph", dependencies: ["Digest", "ZipArchive", "JSONDepth"]),
        // GPX / TCX / FIT / Slopes parsing, segmentation, trail matching; pure Swift, never imports Postgres.
        .target(name: "ActivityImport", dependencies: ["MountainGraph", "ZipArchive", "Digest", "CivilCalendar"]),
        // Traversal-time model, Pareto-label meeting-point solver, route metrics; pure Swift, never imports Postgres.
        .target(name: "MeetSolver", dependencies: ["MountainGraph", "Digest", "CivilCalendar", "JSONDepth"]),
        // Executors on OS threads of their own, for work that blocks or computes long.
        .target(name: "DedicatedThread", dependencies: ["CLinux"]),
        .target(name: "Postgres", dependencies: ["DedicatedThread", "CLibPQ", "Digest", "CivilCalendar", "JSONDepth"]),
        .target(name: "PostgresServer", dependencies: ["Postgres", "Digest"]),
        .target(name: "Migrator", dependencies: ["Postgres", "Digest"]),
        // The AirStrive sync protocol as a client: a phone's SQLite store, its queue, push and pull.
        .target(name: "GridSync", dependencies: ["CSQLite", "Postgres", "Digest", "CivilCalendar", "JSONDepth"]),
        // The realtime relay over LISTEN/NOTIFY: channel registry, friend filter, presence, fan-out.
        .target(name: "Relay", dependencies: ["Postgres", "JSONDepth"]),
        // `summit serve`: HTTP/1.1 + WebSocket on epoll, speaking the hosted platform's auth, REST, realtime and storage.
        .target(name: "Gateway", dependencies: ["Postgres", "Relay", "Digest", "CLinux", "JSONDepth", "Mail", "CurlClient", "CQRencode"]),
        // One HTTP/1.1 exchange over libcurl on a thread of its own: provider key sets, Overpass answers.
        .target(name: "CurlClient", dependencies: ["CCurl"]),
        // Mail through an SMTP server, over libcurl: the auth service's codes and links.
        .target(name: "Mail", dependencies: ["CCurl"]),
        // APNs over HTTP/2 through libcurl (one multiplexed connection per endpoint), ES256 provider tokens over libcrypto; no Postgres.
        .target(name: "Push", dependencies: ["CCurl", "CLinux", "Digest", "JSONDepth"]),
        // Tests/APNsStandIn's h2 server started as APNs for the push tests and `summit bench push`.
        .target(name: "PushStandIn", dependencies: ["Push", "SummitDatabase"]),
        // The workspace, the embedded or external server, migrated templates, test databases, pgTAP.
        .target(name: "SummitDatabase", dependencies: ["Postgres", "PostgresServer", "Migrator", "Digest"]),
        .target(name: "Summit", dependencies: ["SummitDatabase", "Postgres", "PostgresServer", "Migrator", "Digest", "ZipArchive", "MountainGraph", "ActivityImport", "GridSync", "Relay", "MeetSolver", "Gateway", "Push", "JSONDepth", "CurlClient"]),
        .executableTarget(name: "summit", dependencies: ["Summit"]),
        // The benchmarks and the peers they launch (wrk, nginx, Python, pgRouting), apart from the product.
        .target(name: "SummitBenchmarks", dependencies: ["Summit", "SummitDatabase", "Postgres", "PostgresServer", "MountainGraph", "MeetSolver", "ActivityImport", "GridSync", "Relay", "Gateway", "Push", "PushStandIn"]),
        .executableTarget(name: "summit-bench", dependencies: ["Summit", "SummitBenchmarks"]),

        // Shared by the test targets: fresh databases cloned from a migrated template.
        .target(name: "OwnThread", dependencies: ["DedicatedThread"], path: "Tests/OwnThread"),
        .target(name: "SummitTestSupport", dependencies: ["SummitDatabase", "Postgres", "PostgresServer"], path: "Tests/SummitTestSupport"),

        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "PostgresServer", "SummitTestSupport", "JSONDepth"]),
        .testTarget(name: "PostgresServerTests", dependencies: ["PostgresServer", "Postgres", "SummitTestSupport"]),
        .testTarget(name: "MigratorTests", dependencies: ["Migrator", "SummitTestSupport", "Postgres", "PostgresServer"]),
        .testTarget(name: "CivilCalendarTests", dependencies: ["CivilCalendar"]),
        .testTarget(name: "JSONDepthTests", dependencies: ["JSONDepth"]),
        .testTarget(name: "ZipArchiveTests", dependencies: ["ZipArchive"]),
        .testTarget(name: "MountainGraphTests", dependencies: ["MountainGraph", "ZipArchive", "Digest", "JSONDepth"]),
        .testTarget(name: "ActivityImportTests", dependencies: ["ActivityImport", "MountainGraph", "ZipArchive"]),
        .testTarget(name: "GridSyncTests", dependencies: ["GridSync", "Postgres", "SummitTestSupport"]),
        .testTarget(name: "MeetSolverTests", dependencies: ["MeetSolver", "OwnThread", "MountainGraph", "Digest", "JSONDepth"]),
        .testTarget(name: "RelayTests", dependencies: ["Relay", "Postgres", "SummitTestSupport", "JSONDepth"]),
        .testTarget(name: "GatewayTests", dependencies: ["CLinux", "Gateway", "Mail", "Digest", "Postgres", "SummitDatabase", "SummitTestSupport", "OwnThread"]),
        // The client's own tests talk to the stand-in, a real HTTP/2 server.
        .testTarget(name: "PushTests", dependencies: ["Push", "Digest", "PushStandIn", "SummitTestSupport", "OwnThread", "JSONDepth"]),
        .testTarget(name: "SummitBenchmarksTests", dependencies: ["SummitBenchmarks", "Summit", "summit-bench", "SummitTestSupport", "Postgres", "MountainGraph", "OwnThread"]),
        .testTarget(name: "SummitTests", dependencies: ["Summit", "summit", "SummitDatabase", "SummitTestSupport", "Postgres", "PostgresServer", "MountainGraph", "MeetSolver", "Digest", "Push", "PushStandIn", "JSONDepth", "OwnThread"]),
    ]
)
