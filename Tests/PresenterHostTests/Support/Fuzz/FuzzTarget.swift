// The libFuzzer targets: one per parser of untrusted input.
//
// Compiled twice: into the test target (FuzzReplayTests replays every file
// of Fixtures/fuzz/<target>/ through `run`), and by scripts/fuzz into one
// fuzzer executable with every file of the host (Sources/Host*, as a single
// module, -D PRESENTER_FUZZ, -sanitize=fuzzer,address) and Fuzz/FuzzMain.swift,
// whose LLVMFuzzerTestOneInput calls the `run` of the target named by
// PRESENTER_FUZZ_TARGET. So the fuzzer and the ordinary test run feed an
// input to exactly the same code.

import Foundation
#if !PRESENTER_FUZZ
    @testable import HostRuntime
#endif

/// A fuzz target: what one input goes through, and its generated seeds.
enum FuzzTarget: String, CaseIterable, Sendable {
    /// What a presenter process sends the host (frames, messages, drawing).
    case presenter
    /// The ELF pre-check a candidate plugin file goes through before dlopen.
    case elf
    /// The description notes a plugin file holds (ABI 1.3).
    case description
    /// The lines a scan helper reports on.
    case scan
    /// A --messages JSON file (and the JSON reader under it).
    case messages
    /// What get-title reads from the network and from presenter-host-fetch.
    case webTitle = "web-title"
    /// The bookmark store's file.
    case bookmarks
    /// The lines of the `drive` protocol.
    case drive
    /// PRESENTER_PROGRESS_FD lines and OSC 9;4 sequences in a command's output.
    case progress
    /// The registry cache file.
    case registryCache = "registry-cache"
    /// The keys and pastes a terminal sends (KeyDecoder).
    case keys
    /// A process's /proc/PID/stat, whose name its command chooses.
    case procStat = "proc-stat"
    /// The drive socket's (and stdin's) cutting into lines.
    case driveLines = "drive-lines"
    /// The URL a user gives get-title (WebTitle.normalizedURL).
    case webURL = "web-url"

    /// Feeds one input to the target. Any bytes are valid input; a crash, a
    /// hang or a leak is a finding, and so is a failed oracle (a property
    /// checked on top: each target's file lists its own).
    func run(_ input: [UInt8], oracles: Bool) {
        switch self {
        case .presenter: PresenterFuzz.run(input, oracles: oracles)
        case .elf: ELFFuzz.run(input)
        case .description: DescriptionFuzz.run(input)
        case .scan: ScanFuzz.run(input)
        case .messages: MessagesFuzz.run(input)
        case .webTitle: WebTitleFuzz.run(input, oracles: oracles)
        case .bookmarks: BookmarksFuzz.run(input)
        case .drive: DriveFuzz.run(input)
        case .progress: ProgressFuzz.run(input)
        case .registryCache: RegistryCacheFuzz.run(input)
        case .keys: KeysFuzz.run(input)
        case .procStat: ProcessStatFuzz.run(input)
        case .driveLines: DriveLinesFuzz.run(input)
        case .webURL: WebURLFuzz.run(input)
        }
    }

    /// Inputs made with the product's own encoders where it has them, so
    /// they follow the formats when they change (scripts/fuzz adds them to
    /// the kept corpus on every run).
    var seeds: [(name: String, bytes: [UInt8])] {
        switch self {
        case .presenter: PresenterFuzz.seeds()
        case .elf: ELFFuzz.seeds()
        case .description: DescriptionFuzz.seeds()
        case .scan: ScanFuzz.seeds()
        case .messages: MessagesFuzz.seeds()
        case .webTitle: WebTitleFuzz.seeds()
        case .bookmarks: BookmarksFuzz.seeds()
        case .drive: DriveFuzz.seeds()
        case .progress: ProgressFuzz.seeds()
        case .registryCache: RegistryCacheFuzz.seeds()
        case .keys: KeysFuzz.seeds()
        case .procStat: ProcessStatFuzz.seeds()
        case .driveLines: DriveLinesFuzz.seeds()
        case .webURL: WebURLFuzz.seeds()
        }
    }
}

/// A broken property: crashes, so that libFuzzer saves the input (and the
/// replay test fails loudly).
func fuzzFailure(_ message: @autoclosure () -> String) -> Never {
    fatalError("fuzz oracle: " + message())
}

/// Fails unless `text` (an error shown to the user) is one line with no
/// control character: what a file or a client sends must never break it.
func fuzzCheckOneLine(_ text: String, _ what: @autoclosure () -> String) {
    if text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) {
        fuzzFailure("\(what()) gave an error with a control character: \(text.debugDescription)")
    }
}

/// Bytes as text the way a reader of a JSON or line format receives them.
func fuzzText(_ bytes: some Collection<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
