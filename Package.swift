// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "announce",
  products: [
    .executable(name: "announce", targets: ["announce"]),
    .library(name: "AnnouncerCore", targets: ["AnnouncerCore"]),
    // The test doubles, as swift-nio ships NIOEmbedded: a library user tests the code
    // around an Announcer with the scripted backend and the manual clock.
    .library(name: "AnnouncerTesting", targets: ["AnnouncerTesting"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    // Only for `swift package generate-documentation`; nothing links it.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0"),
  ],
  targets: [
    .systemLibrary(
      name: "CSpeechd",
      pkgConfig: "speech-dispatcher",
      providers: [.apt(["libspeechd-dev"])]
    ),
    // libbrlapi's header only, with no `link`: AnnouncerCore opens the library with dlopen
    // when braille is asked for, so without braille nothing changes (see docs/braille.md).
    .systemLibrary(name: "CBrlapi", providers: [.apt(["libbrlapi-dev"])]),
    // sd-bus's header only, with no `link`: AnnouncerCore opens libsystemd with dlopen when
    // desktop notifications are asked for (see docs/notify.md).
    .systemLibrary(name: "CSdBus", providers: [.apt(["libsystemd-dev"])]),
    // cmark-gfm's headers only, with no `link`: AnnouncerCore opens libcmark-gfm with dlopen
    // when Markdown is asked for.
    .systemLibrary(
      name: "CCmarkGFM", providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
    // glibc's POSIX_SPAWN_SETSID, which Swift's Glibc module does not show.
    .systemLibrary(name: "CSpawn"),
    // glibc's pidfd_open and pidfd_send_signal, which Swift's Glibc module does not show.
    .systemLibrary(name: "CPidfd"),
    .systemLibrary(
      name: "CLibXML2",
      pkgConfig: "libxml-2.0",
      providers: [.apt(["libxml2-dev"])]
    ),
    .target(
      name: "AnnouncerCore",
      dependencies: [
        "CSpeechd",
        "CBrlapi",
        "CSdBus",
        "CCmarkGFM",
        "CLibXML2",
        .product(name: "DequeModule", package: "swift-collections"),
      ]
    ),
    // The test doubles of the library, as swift-nio ships NIOEmbedded: a scripted speech
    // backend, a scripted braille display and a manual clock, for the tests of every
    // layer; the product makes the scripted backend and the clock public.
    .target(
      name: "AnnouncerTesting",
      dependencies: [
        "AnnouncerCore",
        .product(name: "DequeModule", package: "swift-collections"),
      ]
    ),
    // The property tests' seeded generators and runner (swift-property-based 2 needs Swift
    // 6.1, and Debian 13's Swift is 6.0.3). A target of its own, without AnnouncerCore.
    .target(name: "PropertyTesting"),
    .executableTarget(
      name: "announce",
      dependencies: [
        "AnnouncerCore",
        "CSpawn",
        "CPidfd",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(
      name: "CoreThroughput",
      dependencies: ["AnnouncerCore"],
      path: "Benchmarks/CoreThroughput"
    ),
    .executableTarget(
      name: "ParserFloor",
      dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
      path: "Benchmarks/ParserFloor"
    ),
    .testTarget(
      name: "AnnouncerCoreTests",
      dependencies: [
        "AnnouncerCore", "AnnouncerTesting", "PropertyTesting",
        .product(name: "DequeModule", package: "swift-collections"),
      ]
    ),
    .testTarget(
      name: "announceTests",
      dependencies: [
        "AnnouncerCore", "AnnouncerTesting", "PropertyTesting", "announce",
      ]
    ),
    .testTarget(
      name: "AnnounceIntegrationTests",
      dependencies: ["AnnouncerCore", "AnnouncerTesting", "announce"],
      resources: []
    ),
  ]
)
