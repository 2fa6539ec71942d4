// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Summit",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "summit", targets: ["summit"]),
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
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // OpenSSL's libssl (TLS with ALPN for APNs) and the libcrypto calls it needs (ES256 keys).
        .systemLibrary(name: "CSSL", pkgConfig: "libssl", providers: [.apt(["libssl-dev"])]),
        // epoll and eventfd: in the C library, not in Glibc's Swift module.
        .systemLibrary(name: "CLinux"),

        .target(name: "Digest", dependencies: ["CCrypto"]),
        // Zip reading and raw deflate over zlib: SRTM tiles, graph blobs, activity exports.
        .target(name: "ZipArchive", dependencies: ["CZlib"]),
        // OSM → canonical directed graph; pure Swift, never imports Postgres.
        // Calendar days without a time zone database: timestamps, sync stamps, recordings, the resort clock.
        .target(name: "CivilCalendar"),
        .target(name: "MountainGraph", dependencies: ["Digest", "ZipArchive"]),
        // GPX / TCX / FIT / Slopes parsing, segmentation, trail matching; pure Swift, never imports Postgres.
        .target(name: "ActivityImport", dependencies: ["MountainGraph", "ZipArchive", "Digest", "CivilCalendar"]),
        // Traversal-time model, Pareto-label meeting-point solver, route metrics; pure Swift, never imports Postgres.
        .target(name: "MeetSolver", dependencies: ["MountainGraph", "ActivityImport", "Digest", "CivilCalendar"]),
        .target(name: "Postgres", dependencies: ["CLibPQ", "Digest", "CivilCalendar"]),
        .target(name: "PostgresServer", dependencies: ["Postgres", "Digest"]),
        .target(name: "Migrator", dependencies: ["Postgres", "Digest"]),
        // The AirStrive sync protocol as a client: a phone's SQLite store, its queue, push and pull.
        .target(name: "GridSync", dependencies: ["CSQLite", "Postgres", "Digest", "CivilCalendar"]),
        // The realtime relay over LISTEN/NOTIFY: channel registry, friend filter, presence, fan-out.
        .target(name: "Relay", dependencies: ["Postgres"]),
        // `summit serve`: HTTP/1.1 + WebSocket on epoll, speaking the hosted platform's auth, REST, realtime and storage.
        .target(name: "Gateway", dependencies: ["Postgres", "Relay", "Digest", "CCrypto", "CLinux"]),
        // APNs over HTTP/2: framing, HPACK, TLS with ALPN h2, ES256 provider tokens; no Postgres.
        .target(name: "Push", dependencies: ["CSSL"]),
        .target(name: "Summit", dependencies: ["Postgres", "PostgresServer", "Migrator", "Digest", "MountainGraph", "ActivityImport", "GridSync", "Relay", "MeetSolver", "Gateway", "Push"]),
        .executableTarget(name: "summit", dependencies: ["Summit"]),

        // Shared by the test targets: fresh databases cloned from a migrated template.
        .target(name: "SummitTestSupport", dependencies: ["Summit"], path: "Tests/SummitTestSupport"),

        .testTarget(name: "PostgresTests", dependencies: ["Postgres", "SummitTestSupport"]),
        .testTarget(name: "PostgresServerTests", dependencies: ["PostgresServer", "SummitTestSupport"]),
        .testTarget(name: "MigratorTests", dependencies: ["Migrator", "SummitTestSupport"]),
        .testTarget(name: "CivilCalendarTests", dependencies: ["CivilCalendar"]),
        .testTarget(name: "ZipArchiveTests", dependencies: ["ZipArchive"]),
        .testTarget(name: "MountainGraphTests", dependencies: ["MountainGraph", "ZipArchive", "Digest"]),
        .testTarget(name: "ActivityImportTests", dependencies: ["ActivityImport", "MountainGraph", "ZipArchive"]),
        .testTarget(name: "GridSyncTests", dependencies: ["GridSync", "Postgres", "SummitTestSupport"]),
        .testTarget(name: "MeetSolverTests", dependencies: ["MeetSolver", "MountainGraph", "Digest"]),
        .testTarget(name: "RelayTests", dependencies: ["Relay", "Postgres", "SummitTestSupport"]),
        .testTarget(name: "GatewayTests", dependencies: ["Gateway", "Relay", "Postgres", "SummitTestSupport"]),
        .testTarget(name: "PushTests", dependencies: ["Push"]),
        .testTarget(name: "SummitTests", dependencies: ["Summit", "summit", "SummitTestSupport"]),
    ]
)
